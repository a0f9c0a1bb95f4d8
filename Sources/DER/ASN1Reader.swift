/// A cursor over DER or BER bytes that reads one element at a time.
///
/// Modelled on BoringSSL's `CBS` and Go's `cryptobyte.String`: each `read` consumes one element
/// and hands it back as a view into the same buffer; constructed elements give child readers.
/// Nothing is copied or allocated while walking. The bytes are borrowed: use the reader inside
/// the `withUnsafeBytes` (or `ASN1Reader.parse`) scope that lends them. Every loop advances and
/// nesting is bounded by `ASN1Limits.maxDepth`, so any input is read in linear time.
public struct ASN1Reader: @unchecked Sendable {
    /// Where offset 0 of the input lies (positions are input offsets, so errors need no
    /// translation); `nil` only for an empty input.
    @usableFromInline let origin: UnsafeRawPointer?
    @usableFromInline var position: Int
    @usableFromInline let end: Int
    @usableFromInline let packed: Packed
    /// Start of the previous element, for the DER SET OF order check (elements are adjacent, so
    /// it ends where the next one starts); `-1` before the first.
    @usableFromInline var previousStart = -1

    @usableFromInline
    struct Packed {
        @usableFromInline let rules: EncodingRules
        @usableFromInline let depth: UInt8
        @usableFromInline let checksSetOrder: Bool

        @inlinable
        init(rules: EncodingRules, depth: Int, checksSetOrder: Bool) {
            self.rules = rules
            self.depth = UInt8(truncatingIfNeeded: depth)
            self.checksSetOrder = checksSetOrder
        }
    }

    @inlinable
    init(origin: UnsafeRawPointer?, position: Int, end: Int, rules: EncodingRules, depth: Int, checksSetOrder: Bool) {
        self.origin = origin
        self.position = position
        self.end = end
        packed = Packed(rules: rules, depth: depth, checksSetOrder: checksSetOrder)
    }

    /// A reader over `bytes`. `baseOffset` is added to every reported offset (use it when `bytes`
    /// is a slice of a larger file).
    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer, rules: EncodingRules, baseOffset: Int = 0) {
        self.init(
            origin: bytes.baseAddress.map { $0 - baseOffset }, position: baseOffset, end: baseOffset + bytes.count,
            rules: rules, depth: 0, checksSetOrder: false)
    }

    /// Lends `bytes` to `body` as a reader, then requires that `body` consumed all of them.
    @inlinable
    public static func parse<R>(
        _ bytes: [UInt8], rules: EncodingRules, _ body: (inout ASN1Reader) throws(ASN1Error) -> R
    ) throws(ASN1Error) -> R {
        try bytes.withRawBytes { (raw: UnsafeRawBufferPointer) throws(ASN1Error) -> R in
            var reader = ASN1Reader(raw, rules: rules)
            let value = try body(&reader)
            try reader.finish()
            return value
        }
    }

    /// The rules this reader enforces.
    @inlinable public var rules: EncodingRules { packed.rules }
    /// Depth of the elements this reader returns (0 at the top).
    @inlinable public var depth: Int { Int(packed.depth) }
    /// True when no bytes remain.
    @inlinable public var isAtEnd: Bool { position == end }
    /// Offset in the input of the next unread byte.
    @inlinable public var offset: Int { position }
    /// Number of unread bytes.
    @inlinable public var remainingCount: Int { end - position }

    /// The byte at input offset `index` (which the caller has checked lies before `end`).
    @inlinable
    func byte(at index: Int) -> UInt8 {
        origin.unsafelyUnwrapped.load(fromByteOffset: index, as: UInt8.self)
    }

    /// Throws `trailingBytes` unless every byte has been read (X.690: one value, nothing after).
    @inlinable
    public func finish() throws(ASN1Error) {
        guard position == end else { throw ASN1Error(.trailingBytes, at: position) }
    }

    /// The next element's tag without consuming it, or `nil` at the end. A malformed header is
    /// reported here already.
    @inlinable
    public func peekTag() throws(ASN1Error) -> ASN1Tag? {
        guard position < end else { return nil }
        if let origin, let header = ASN1CommonHeader.decode(origin, at: position, end: end) {
            let tag = ASN1Tag(identifierOctet: header.identifier)
            if tag.hasAllowedForm(rules: rules) { return tag }
        }
        return try ASN1Header.decode(origin.unsafelyUnwrapped, at: position, limit: end, rules: rules).tag
    }

    /// Reads the next element, whatever its tag.
    @inlinable @inline(__always)
    public mutating func readElement() throws(ASN1Error) -> ASN1Element {
        // Fast path: a low tag number of an allowed form and a definite length in at most two
        // octets, minimal as DER requires (X.690 §8.1.2.2, §8.1.3, §10.1). Anything else, valid or
        // not, takes the general path, which reports the precise error.
        let start = position
        if _fastPath(packed.depth <= ASN1Limits.maxDepth && !packed.checksSetOrder), let origin,
            let header = ASN1CommonHeader.decode(origin, at: start, end: end)
        {
            let tag = ASN1Tag(identifierOctet: header.identifier)
            if _fastPath(tag.hasAllowedForm(rules: rules)) {
                position = header.contentEnd
                return ASN1Element(
                    tag: tag, rules: rules, depth: depth, headerLength: header.contentStart - start,
                    isIndefiniteLength: false, origin: origin, start: start, contentEnd: header.contentEnd)
            }
        }
        return try readElementInGeneral()
    }

    /// Every form of header, with the precise error for the malformed ones.
    @usableFromInline
    mutating func readElementInGeneral() throws(ASN1Error) -> ASN1Element {
        guard position < end else { throw ASN1Error(.truncated, at: position) }
        guard depth <= ASN1Limits.maxDepth else { throw ASN1Error(.tooDeep, at: position) }
        let start = position
        let bytes = origin.unsafelyUnwrapped
        let header = try ASN1Header.decode(bytes, at: start, limit: end, rules: rules)
        let contentStart = start + header.headerLength
        let contentEnd: Int
        let next: Int
        if let length = header.contentLength {
            contentEnd = contentStart + length
            next = contentEnd
        } else {
            contentEnd = try ASN1Header.findEndOfContents(
                bytes, elementStart: start, contentStart: contentStart,
                limit: end, depth: depth)
            next = contentEnd + 2
        }
        if packed.checksSetOrder { try checkSetOrder(start: start, end: next) }
        position = next
        return ASN1Element(
            tag: header.tag, rules: rules, depth: depth, headerLength: header.headerLength,
            isIndefiniteLength: header.contentLength == nil, origin: origin,
            start: start, contentEnd: contentEnd)
    }

    /// Reads the next element and requires its tag to be `tag`.
    @inlinable @inline(__always)
    public mutating func read(_ tag: ASN1Tag) throws(ASN1Error) -> ASN1Element {
        let element = try readElement()
        try element.require(tag)
        return element
    }

    /// Reads the next element if its tag is `tag`; otherwise consumes nothing and returns `nil`.
    @inlinable
    public mutating func readOptional(_ tag: ASN1Tag) throws(ASN1Error) -> ASN1Element? {
        guard try peekTag() == tag else { return nil }
        return try readElement()
    }

    /// Reads a SEQUENCE and returns a reader over its children.
    @inlinable
    public mutating func readSequence() throws(ASN1Error) -> ASN1Reader {
        try read(.sequence).children()
    }

    /// Skips the next element, whatever it is.
    @inlinable
    public mutating func skipElement() throws(ASN1Error) {
        _ = try readElement()
    }

    /// DER SET OF order (X.690 §11.6): encodings ascending as octet strings, the shorter padded
    /// with trailing zero octets.
    @usableFromInline
    mutating func checkSetOrder(start: Int, end: Int) throws(ASN1Error) {
        defer { previousStart = start }
        guard previousStart >= 0, let origin else { return }
        let a = UnsafeRawBufferPointer(start: origin + previousStart, count: start - previousStart)
        let b = UnsafeRawBufferPointer(start: origin + start, count: end - start)
        if Self.compareZeroPadded(a, b) > 0 { throw ASN1Error(.setNotSorted, at: start) }
    }

    /// Compares two encodings as X.690 §11.6 orders them: -1, 0 or 1.
    @usableFromInline
    static func compareZeroPadded(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let count = max(a.count, b.count)
        for i in 0 ..< count {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }
}
