/// What a depth-first walk reports: each element as it is entered, and the end-of-contents octets
/// that close each indefinite-length element.
public enum ASN1WalkEvent: @unchecked Sendable {
    /// An element (its content follows as further events when it is constructed).
    case element(ASN1Element)
    /// The end-of-contents octets at `offset`, at the depth of the children they close.
    case endOfContents(offset: Int, depth: Int)
}

extension ASN1Reader {
    /// Visits every remaining element depth-first, descending into every constructed element
    /// (never into the content of primitive ones). No allocation; recursion is bounded by
    /// `ASN1Limits.maxDepth` because each level is a child reader. An error `visit` throws ends
    /// the walk.
    public mutating func walk(_ visit: (ASN1WalkEvent) throws(ASN1Error) -> Void) throws(ASN1Error) {
        while !isAtEnd {
            let element = try readElement()
            try visit(.element(element))
            if element.tag.isConstructed {
                var children = try element.children()
                try children.walk(visit)
            }
            if element.isIndefiniteLength {
                try visit(.endOfContents(offset: element.contentOffset + element.contentLength, depth: element.depth + 1))
            }
        }
    }
}
