/// The character string types this reader decodes (X.680 §41), with their universal tags.
public enum ASN1StringKind: Sendable, Hashable, CaseIterable {
    /// UTF8String, NumericString, PrintableString, TeletexString (T61String), IA5String,
    /// VisibleString, UniversalString and BMPString.
    case utf8, numeric, printable, t61, ia5, visible, universal, bmp

    /// The universal tag of the primitive encoding.
    public var tag: ASN1Tag {
        switch self {
        case .utf8: return .utf8String
        case .numeric: return .numericString
        case .printable: return .printableString
        case .t61: return .t61String
        case .ia5: return .ia5String
        case .visible: return .visibleString
        case .universal: return .universalString
        case .bmp: return .bmpString
        }
    }

    /// The kind whose universal tag number is `tag`'s (primitive or constructed), if any.
    public init?(tag: ASN1Tag) {
        guard let kind = ASN1StringKind.allCases.first(where: { $0.tag == tag.asPrimitive }) else { return nil }
        self = kind
    }

    /// Decodes `bytes` as this kind, or `nil` when they hold a character the type does not allow.
    public func decode(_ bytes: UnsafeRawBufferPointer) -> String? {
        switch self {
        case .utf8:
            return UTF8Validation.string(bytes)
        case .ia5:
            return ascii(bytes) { $0 < 0x80 }
        case .visible:
            return ascii(bytes) { $0 >= 0x20 && $0 < 0x7F }
        case .numeric:
            return ascii(bytes) { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x20 }
        case .printable:
            return ascii(bytes, allowing: ASN1StringKind.isPrintable)
        case .t61:
            // Treated as Latin-1, as most X.509 software does.
            var text = ""
            text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
            return text
        case .bmp:
            return wide(bytes, width: 2)
        case .universal:
            return wide(bytes, width: 4)
        }
    }

    /// Whether `bytes` hold only characters this kind allows (exactly when `decode` gives a
    /// string), without building a `String` for the single-byte kinds and ASCII UTF-8 (what
    /// certificates and receipts hold).
    @inlinable
    public func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        switch self {
        case .utf8: return UTF8Validation.isValid(bytes)
        case .ia5: return isASCII(bytes)
        case .visible: return bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        case .numeric: return bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x20 }
        case .printable: return bytes.allSatisfy(ASN1StringKind.isPrintable)
        case .t61: return true
        case .bmp, .universal: return decode(bytes) != nil
        }
    }

    /// PrintableString characters (X.680 §41.4): A–Z a–z 0–9 space ' ( ) + , - . / : = ?
    @usableFromInline
    static func isPrintable(_ c: UInt8) -> Bool {
        switch c {
        case 0x41 ... 0x5A, 0x61 ... 0x7A, 0x30 ... 0x39, 0x20, 0x27, 0x28, 0x29, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x3A, 0x3D, 0x3F:
            return true
        default:
            return false
        }
    }

    /// True when every byte is below 0x80, checked eight at a time.
    @usableFromInline
    func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        var bits: UInt64 = 0
        while i + 8 <= bytes.count {
            bits |= bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < bytes.count { bits |= UInt64(bytes[i]); i += 1 }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    private func ascii(_ bytes: UnsafeRawBufferPointer, allowing allowed: (UInt8) -> Bool) -> String? {
        guard bytes.allSatisfy(allowed) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// UCS-2 (BMPString, no surrogates) or UCS-4 (UniversalString), big-endian.
    private func wide(_ bytes: UnsafeRawBufferPointer, width: Int) -> String? {
        guard bytes.count % width == 0 else { return nil }
        var text = ""
        var index = 0
        while index < bytes.count {
            var value: UInt32 = 0
            for i in 0 ..< width { value = value << 8 | UInt32(bytes[index + i]) }
            index += width
            guard let scalar = Unicode.Scalar(value) else { return nil }
            text.unicodeScalars.append(scalar)
        }
        return text
    }
}

extension ASN1Element {
    /// Decodes a character string of `kind`, whatever the tag (implicit tagging allowed). BER
    /// constructed strings are joined from their segments; characters the type does not allow
    /// throw `invalidString`.
    public func stringValue(_ kind: ASN1StringKind) throws(ASN1Error) -> String {
        let decoded: String?
        if tag.isConstructed {
            let joined = try octetStringValue().copyBytes()
            decoded = joined.withUnsafeBytes { kind.decode($0) }
        } else {
            decoded = kind.decode(content)
        }
        guard let decoded else { throw error(.invalidString) }
        return decoded
    }
}

extension ASN1Reader {
    /// Reads a character string of `kind` (its universal tag, primitive or BER constructed).
    public mutating func readString(_ kind: ASN1StringKind) throws(ASN1Error) -> String {
        let element = try readElement()
        guard element.tag.asPrimitive == kind.tag else {
            throw element.error(.unexpectedTag(expected: kind.tag, found: element.tag))
        }
        return try element.stringValue(kind)
    }
}
