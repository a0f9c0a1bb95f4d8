/// Builds canonical DER (X.690 §10–11): minimal lengths, primitive strings, SET OF sorted.
///
/// Used by tests, synthetic receipts and fuzz seeds. Constructed elements are written through a
/// closure; SET OF contents are sorted when the closure returns.
public struct DERWriter: Sendable {
    /// The encoding written so far.
    public private(set) var bytes: [UInt8] = []
    /// Start offsets of the top-level elements, for sorting SET OF.
    private var elementStarts: [Int] = []

    /// An empty writer.
    public init() {}

    /// Appends a complete element with the given tag and content octets.
    public mutating func append(_ tag: ASN1Tag, content: some Collection<UInt8>) {
        elementStarts.append(bytes.count)
        DERWriter.appendIdentifier(tag, to: &bytes)
        DERWriter.appendLength(content.count, to: &bytes)
        bytes.append(contentsOf: content)
    }

    /// Appends one already encoded element verbatim (one per call, so that SET OF sorting sees
    /// each element).
    public mutating func appendEncoded(_ encoded: some Collection<UInt8>) {
        elementStarts.append(bytes.count)
        bytes.append(contentsOf: encoded)
    }

    /// Appends a constructed element whose children `body` writes.
    public mutating func appendConstructed(_ tag: ASN1Tag, _ body: (inout DERWriter) -> Void) {
        var inner = DERWriter()
        body(&inner)
        append(tag.asConstructed, content: inner.bytes)
    }

    /// Appends a SEQUENCE.
    public mutating func appendSequence(_ body: (inout DERWriter) -> Void) {
        appendConstructed(.sequence, body)
    }

    /// Appends a SET OF (or any SET tag) whose elements are sorted as X.690 §11.6 requires.
    public mutating func appendSetOf(tag: ASN1Tag = .set, _ body: (inout DERWriter) -> Void) {
        var inner = DERWriter()
        body(&inner)
        append(tag.asConstructed, content: inner.sortedElements().joined())
    }

    private func sortedElements() -> [ArraySlice<UInt8>] {
        let bounds = zip(elementStarts, elementStarts.dropFirst() + [bytes.count])
        let elements = bounds.map { bytes[$0 ..< $1] }
        return elements.sorted { a, b in
            a.withUnsafeBytes { x in b.withUnsafeBytes { y in ASN1Reader.compareZeroPadded(x, y) < 0 } }
        }
    }

    // MARK: Primitive values

    /// BOOLEAN (DER: FF for true).
    public mutating func appendBool(_ value: Bool) { append(.boolean, content: [value ? 0xFF : 0x00]) }

    /// NULL.
    public mutating func appendNull() { append(.null, content: []) }

    /// INTEGER from a signed value, minimal two's complement.
    public mutating func appendInteger(_ value: Int64, tag: ASN1Tag = .integer) {
        var content: [UInt8] = []
        var v = value
        repeat {
            content.insert(UInt8(truncatingIfNeeded: v), at: 0)
            v >>= 8
        } while !(v == 0 && content[0] & 0x80 == 0) && !(v == -1 && content[0] & 0x80 != 0)
        append(tag, content: content)
    }

    /// INTEGER from an unsigned big-endian magnitude (leading zeros dropped, a 00 added when the
    /// top bit is set), as for serial numbers and RSA moduli.
    public mutating func appendUnsignedInteger(_ magnitude: some Collection<UInt8>, tag: ASN1Tag = .integer) {
        var content = Array(magnitude.drop { $0 == 0 })
        if content.isEmpty || content[0] & 0x80 != 0 { content.insert(0, at: 0) }
        append(tag, content: content)
    }

    /// OCTET STRING.
    public mutating func appendOctetString(_ content: some Collection<UInt8>, tag: ASN1Tag = .octetString) {
        append(tag, content: content)
    }

    /// BIT STRING of whole octets, or with `unusedBits` padding bits (which must be zero).
    public mutating func appendBitString(_ bits: some Collection<UInt8>, unusedBits: UInt8 = 0) {
        precondition(unusedBits <= 7 && (unusedBits == 0 || !bits.isEmpty))
        append(.bitString, content: [unusedBits] + Array(bits))
    }

    /// OBJECT IDENTIFIER.
    public mutating func appendObjectIdentifier(_ oid: ASN1ObjectIdentifier) {
        append(.objectIdentifier, content: oid.encodedContent)
    }

    /// A character string of `kind` from its encoded octets (UTF-8 for `.utf8`, ASCII for the
    /// ASCII kinds, UCS-2/UCS-4 big-endian for BMP/Universal).
    public mutating func appendString(_ text: String, as kind: ASN1StringKind) {
        let content: [UInt8]
        switch kind {
        case .bmp: content = text.unicodeScalars.flatMap { [UInt8($0.value >> 8 & 0xFF), UInt8($0.value & 0xFF)] }
        case .universal: content = text.unicodeScalars.flatMap { s in (0 ..< 4).reversed().map { UInt8(s.value >> (8 * UInt32($0)) & 0xFF) } }
        case .t61:
            precondition(text.unicodeScalars.allSatisfy { $0.value <= 0xFF }, "T61String is written as Latin-1")
            content = text.unicodeScalars.map { UInt8($0.value) }
        default: content = Array(text.utf8)
        }
        append(kind.tag, content: content)
    }

    /// UTCTime `YYMMDDHHMMSSZ` (years 1950–2049).
    public mutating func appendUTCTime(_ secondsSince1970: Int64) {
        let c = CivilTime.components(secondsSince1970: secondsSince1970)
        precondition((1950 ... 2049).contains(c.year), "UTCTime covers 1950–2049")
        append(.utcTime, content: Array((DERWriter.digits(c.year % 100, 2) + DERWriter.clock(c) + "Z").utf8))
    }

    /// GeneralizedTime `YYYYMMDDHHMMSSZ`.
    public mutating func appendGeneralizedTime(_ secondsSince1970: Int64) {
        let c = CivilTime.components(secondsSince1970: secondsSince1970)
        append(.generalizedTime, content: Array((DERWriter.digits(c.year, 4) + DERWriter.clock(c) + "Z").utf8))
    }

    /// X.509 Time: UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5).
    public mutating func appendTime(_ secondsSince1970: Int64) {
        let year = CivilTime.components(secondsSince1970: secondsSince1970).year
        if (1950 ... 2049).contains(year) { appendUTCTime(secondsSince1970) } else { appendGeneralizedTime(secondsSince1970) }
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func clock(_ c: CivilTime.Components) -> String {
        digits(c.month, 2) + digits(c.day, 2) + digits(c.hour, 2) + digits(c.minute, 2) + digits(c.second, 2)
    }

    // MARK: Header octets

    /// Identifier octets: low-tag-number form below 31, else high-tag-number base-128 (X.690 §8.1.2).
    public static func appendIdentifier(_ tag: ASN1Tag, to out: inout [UInt8]) {
        let leading = tag.tagClass.rawValue << 6 | (tag.isConstructed ? 0x20 : 0)
        if tag.number < 31 {
            out.append(leading | UInt8(tag.number))
            return
        }
        out.append(leading | 0x1F)
        var shift: UInt32 = 28
        while shift > 0 && tag.number >> shift == 0 { shift -= 7 }
        while shift > 0 {
            out.append(UInt8(tag.number >> shift & 0x7F) | 0x80)
            shift -= 7
        }
        out.append(UInt8(tag.number & 0x7F))
    }

    /// Length octets in the minimal form (X.690 §10.1).
    public static func appendLength(_ length: Int, to out: inout [UInt8]) {
        if length < 0x80 {
            out.append(UInt8(length))
            return
        }
        var octets: [UInt8] = []
        var v = length
        while v > 0 { octets.insert(UInt8(v & 0xFF), at: 0); v >>= 8 }
        out.append(0x80 | UInt8(octets.count))
        out.append(contentsOf: octets)
    }
}
