/// One element read from a buffer: its tag and where its header and content lie.
///
/// A view, not a copy: the bytes belong to the caller and the element is valid only while they
/// are (inside the `withUnsafeBytes` scope that lent them). Offsets are absolute positions in the
/// outermost reader's input; `range` and `contentRange` can be kept as indexes into that input.
/// It is `Sendable` as the read-only bytes it borrows are.
public struct ASN1Element: @unchecked Sendable {
    // Four words, so an element travels in registers: where offset 0 of the input is, the
    // element's first octet and content end as input offsets, and the small fields packed.
    @usableFromInline let origin: UnsafeRawPointer?
    @usableFromInline let start: Int
    @usableFromInline let contentEnd: Int
    @usableFromInline let packed: Packed

    /// tag, header length, depth, rules and the indefinite flag in one word.
    @usableFromInline
    struct Packed {
        @usableFromInline let tag: ASN1Tag
        @usableFromInline let headerLength: UInt8
        @usableFromInline let depth: UInt8
        @usableFromInline let rules: EncodingRules
        @usableFromInline let isIndefiniteLength: Bool

        @inlinable
        init(tag: ASN1Tag, headerLength: Int, depth: Int, rules: EncodingRules, isIndefiniteLength: Bool) {
            self.tag = tag
            self.headerLength = UInt8(truncatingIfNeeded: headerLength)
            self.depth = UInt8(truncatingIfNeeded: depth)
            self.rules = rules
            self.isIndefiniteLength = isIndefiniteLength
        }
    }

    @inlinable
    init(
        tag: ASN1Tag, rules: EncodingRules, depth: Int, headerLength: Int, isIndefiniteLength: Bool,
        origin: UnsafeRawPointer?, start: Int, contentEnd: Int
    ) {
        self.origin = origin
        self.start = start
        self.contentEnd = contentEnd
        packed = Packed(tag: tag, headerLength: headerLength, depth: depth, rules: rules, isIndefiniteLength: isIndefiniteLength)
    }

    /// The element's tag.
    @inlinable public var tag: ASN1Tag { packed.tag }
    /// The rules the element was read under; its children are read under the same rules.
    @inlinable public var rules: EncodingRules { packed.rules }
    /// Nesting depth: 0 for an outermost element.
    @inlinable public var depth: Int { Int(packed.depth) }
    /// Identifier plus length octets (at most 2 + 8 + 5).
    @inlinable public var headerLength: Int { Int(packed.headerLength) }
    /// True for the BER indefinite-length form (content closed by end-of-contents).
    @inlinable public var isIndefiniteLength: Bool { packed.isIndefiniteLength }

    /// Offset of the first identifier octet in the input.
    @inlinable public var offset: Int { start }
    /// Offset of the first content octet in the input.
    @inlinable public var contentOffset: Int { start + headerLength }
    /// Number of content octets (for the indefinite form: up to, not including, end-of-contents).
    @inlinable public var contentLength: Int { contentEnd - start - headerLength }
    /// Header, content and (indefinite form) the two end-of-contents octets.
    @inlinable public var encodedLength: Int { contentEnd - start + (isIndefiniteLength ? 2 : 0) }

    /// Input offsets of the whole encoding.
    @inlinable public var range: Range<Int> { start ..< start + encodedLength }
    /// Input offsets of the content octets.
    @inlinable public var contentRange: Range<Int> { contentOffset ..< contentEnd }

    /// The content octets, borrowed from the input.
    @inlinable
    public var content: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: origin.map { $0 + contentOffset }, count: contentLength)
    }

    /// The whole encoding (header, content, end-of-contents), borrowed from the input.
    @inlinable
    public var encoded: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: origin.map { $0 + start }, count: encodedLength)
    }

    /// A reader over the children of a constructed element.
    @inlinable
    public func children() throws(ASN1Error) -> ASN1Reader {
        guard tag.isConstructed else { throw ASN1Error(.unexpectedTag(expected: tag.asConstructed, found: tag), at: offset) }
        return try childReader(rules: rules, checksSetOrder: false)
    }

    /// A reader over the elements of a SET OF; under DER it rejects elements out of order
    /// (X.690 §11.6), under BER it accepts any order.
    @inlinable
    public func setOfChildren() throws(ASN1Error) -> ASN1Reader {
        guard tag.isConstructed else { throw ASN1Error(.unexpectedTag(expected: tag.asConstructed, found: tag), at: offset) }
        return try childReader(rules: rules, checksSetOrder: rules == .der)
    }

    /// A reader over a primitive element's content octets taken as an encoding of their own, as
    /// in an OCTET STRING that wraps DER (X.509 extension values, receipt attribute values).
    /// Offsets stay those of the input.
    @inlinable
    public func encapsulated(rules: EncodingRules) throws(ASN1Error) -> ASN1Reader {
        try childReader(rules: rules, checksSetOrder: false)
    }

    /// A reader positioned at this element itself, reading it again under `rules`: how a BER
    /// envelope hands a certificate or signed attributes to the strict DER reader.
    @inlinable
    public func reread(rules: EncodingRules) -> ASN1Reader {
        ASN1Reader(
            origin: origin, position: start, end: start + encodedLength,
            rules: rules, depth: depth, checksSetOrder: false)
    }

    /// The children lie one level deeper; the reader refuses any element past `maxDepth`.
    @inlinable
    func childReader(rules: EncodingRules, checksSetOrder: Bool) throws(ASN1Error) -> ASN1Reader {
        ASN1Reader(
            origin: origin, position: start + headerLength, end: contentEnd,
            rules: rules, depth: depth + 1, checksSetOrder: checksSetOrder)
    }

    /// Throws `unexpectedTag` unless the element has `expected` as its tag.
    @inlinable
    public func require(_ expected: ASN1Tag) throws(ASN1Error) {
        guard tag == expected else { throw ASN1Error(.unexpectedTag(expected: expected, found: tag), at: offset) }
    }

    /// An error of `kind` located at this element.
    @inlinable
    public func error(_ kind: ASN1Error.Kind) -> ASN1Error { ASN1Error(kind, at: offset) }
}
