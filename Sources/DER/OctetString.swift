/// An OCTET STRING's content: one contiguous run (primitive), or in BER a constructed string
/// whose segments are themselves OCTET STRINGs, read in place without copying (X.690 §8.7.3).
public struct ASN1OctetString: @unchecked Sendable {
    @usableFromInline let element: ASN1Element
    /// Total number of content octets over all segments.
    public let count: Int

    @inlinable
    init(element: ASN1Element, count: Int) {
        self.element = element
        self.count = count
    }

    /// The content when it is one contiguous run (primitive encoding), else `nil`.
    @inlinable
    public var contiguousBytes: UnsafeRawBufferPointer? {
        element.tag.isConstructed ? nil : element.content
    }

    /// Input offsets of the content when it is contiguous.
    @inlinable
    public var contiguousRange: Range<Int>? {
        element.tag.isConstructed ? nil : element.contentRange
    }

    /// Calls `body` with each segment's octets in order (one call for a primitive string).
    @inlinable
    public func forEachSegment(_ body: (UnsafeRawBufferPointer) -> Void) throws(ASN1Error) {
        _ = try ASN1OctetString.walkSegments(of: element, body)
    }

    /// The octets, copied into one array.
    public func copyBytes() throws(ASN1Error) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        try forEachSegment { out.append(contentsOf: $0) }
        return out
    }

    /// Visits the segments of `element` depth-first and returns their total length. Recursion is
    /// bounded: each level is a child reader, which refuses to go past `ASN1Limits.maxDepth`.
    @inlinable
    static func walkSegments(of element: ASN1Element, _ body: (UnsafeRawBufferPointer) -> Void) throws(ASN1Error) -> Int {
        guard element.tag.isConstructed else {
            body(element.content)
            return element.contentLength
        }
        var total = 0
        var segments = try element.children()
        // Segments are OCTET STRINGs (X.690 §8.7.3.2, §8.23.6); like Kaliski's "Layman's Guide"
        // BER also tags them with the string's own universal type.
        let ownTag = element.tag.tagClass == .universal ? element.tag.asPrimitive : ASN1Tag.octetString
        while !segments.isAtEnd {
            let segment = try segments.readElement()
            guard segment.tag.asPrimitive == .octetString || segment.tag.asPrimitive == ownTag else {
                throw segment.error(.unexpectedTag(expected: .octetString, found: segment.tag))
            }
            total += try walkSegments(of: segment, body)
        }
        return total
    }
}

extension ASN1Element {
    /// OCTET STRING content, whatever the tag (implicit tagging allowed). Constructed strings are
    /// accepted under BER only (the DER header check has already refused them), and their
    /// segments are checked now, so later iteration sees well-formed input.
    @inlinable
    public func octetStringValue() throws(ASN1Error) -> ASN1OctetString {
        if tag.isConstructed && rules == .der { throw error(.constructedStringInDER) }
        let count = try ASN1OctetString.walkSegments(of: self) { _ in }
        return ASN1OctetString(element: self, count: count)
    }
}

extension ASN1Reader {
    /// Reads an OCTET STRING, primitive or (BER) constructed.
    @inlinable
    public mutating func readOctetString() throws(ASN1Error) -> ASN1OctetString {
        let element = try readElement()
        guard element.tag.asPrimitive == .octetString else {
            throw element.error(.unexpectedTag(expected: .octetString, found: element.tag))
        }
        return try element.octetStringValue()
    }
}
