/// A cursor over DER or BER bytes that reads one element at a time.
///
/// Modelled on BoringSSL's `CBS` and Go's `cryptobyte.String`: each `read` consumes one element
/// and hands it back as a view into the same buffer; constructed elements give child readers.
/// Nothing is copied or allocated while walking. The bytes are borrowed: use the reader inside
/// the `withUnsafeBytes` (or `ASN1Reader.parse`) scope that lends them. Every loop advances and
/// nesting is bounded by `ASN1Limits.maxDepth`, so any input is read in linear time.
public struct ASN1Reader: @unchecked Sendable {
    /// The rules this reader enforces.
    public let rules: EncodingRules
    /// Depth of the elements this reader returns (0 at the top).
    public let depth: Int

    @usableFromInline let window: UnsafeRawBufferPointer
    @usableFromInline let base: Int
    @usableFromInline var position: Int
    @usableFromInline let end: Int
    @usableFromInline let checksSetOrder: Bool
    /// Start and end (window indexes) of the previous element, for the DER SET OF order check.
    @usableFromInline var previous: (start: Int, end: Int) = (0, 0)

    @inlinable
    init(window: UnsafeRawBufferPointer, base: Int, position: Int, end: Int, rules: EncodingRules,
         depth: Int, checksSetOrder: Bool) {
        self.window = window
        self.base = base
        self.position = position
        self.end = end
        self.rules = rules
        self.depth = depth
        self.checksSetOrder = checksSetOrder
    }

    /// A reader over `bytes`. `baseOffset` is added to every reported offset (use it when `bytes`
    /// is a slice of a larger file).
    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer, rules: EncodingRules, baseOffset: Int = 0) {
        self.init(window: bytes, base: baseOffset, position: 0, end: bytes.count, rules: rules,
                  depth: 0, checksSetOrder: false)
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

    /// True when no bytes remain.
    @inlinable public var isAtEnd: Bool { position == end }
    /// Offset in the input of the next unread byte.
    @inlinable public var offset: Int { base + position }
    /// Number of unread bytes.
    @inlinable public var remainingCount: Int { end - position }

    /// Throws `trailingBytes` unless every byte has been read (X.690: one value, nothing after).
    @inlinable
    public func finish() throws(ASN1Error) {
        guard position == end else { throw ASN1Error(.trailingBytes, at: base + position) }
    }

    /// The next element's tag without consuming it, or `nil` at the end.
    @inlinable
    public func peekTag() throws(ASN1Error) -> ASN1Tag? {
        guard position < end else { return nil }
        return try ASN1Header.decode(window, at: position, limit: end, rules: rules, base: base).tag
    }

    /// Reads the next element, whatever its tag.
    @inlinable
    public mutating func readElement() throws(ASN1Error) -> ASN1Element {
        guard position < end else { throw ASN1Error(.truncated, at: base + position) }
        guard depth <= ASN1Limits.maxDepth else { throw ASN1Error(.tooDeep, at: base + position) }
        let start = position
        let header = try ASN1Header.decode(window, at: start, limit: end, rules: rules, base: base)
        let contentStart = start + header.headerLength
        let contentEnd: Int
        let next: Int
        if let length = header.contentLength {
            contentEnd = contentStart + length
            next = contentEnd
        } else {
            contentEnd = try ASN1Header.findEndOfContents(
                window, elementStart: start, contentStart: contentStart, limit: end, depth: depth, base: base)
            next = contentEnd + 2
        }
        if checksSetOrder { try checkSetOrder(start: start, end: next) }
        position = next
        return ASN1Element(tag: header.tag, rules: rules, depth: depth, headerLength: header.headerLength,
                           isIndefiniteLength: header.contentLength == nil, window: window, base: base,
                           start: start, contentEnd: contentEnd)
    }

    /// Reads the next element and requires its tag to be `tag`.
    @inlinable
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
        defer { previous = (start, end) }
        guard previous.end > previous.start else { return }
        let a = UnsafeRawBufferPointer(rebasing: window[previous.start ..< previous.end])
        let b = UnsafeRawBufferPointer(rebasing: window[start ..< end])
        if Self.compareZeroPadded(a, b) > 0 { throw ASN1Error(.setNotSorted, at: base + start) }
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
