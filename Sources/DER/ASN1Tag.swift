/// An ASN.1 tag: class, primitive/constructed bit and tag number folded into one 32-bit value,
/// so that a constructed encoding never compares equal to the primitive tag of the same number.
///
/// Layout (as BoringSSL's `CBS_ASN1_TAG`): bits 31–30 class, bit 29 constructed, bits 28–0 number.
public struct ASN1Tag: Hashable, Sendable, CustomStringConvertible {
    /// The folded value.
    public let rawValue: UInt32

    /// The four tag classes of X.690 §8.1.2.2 (bits 8–7 of the identifier octet).
    public enum TagClass: UInt8, Sendable {
        /// `UNIVERSAL` (0), `APPLICATION` (1), context-specific (2) and `PRIVATE` (3), the values of bits 8–7.
        case universal = 0, application = 1, contextSpecific = 2, `private` = 3
    }

    /// The largest tag number this reader represents (29 bits).
    public static let maxNumber: UInt32 = (1 << 29) - 1

    /// Makes a tag. `number` must not exceed `maxNumber`.
    @inlinable
    public init(_ tagClass: TagClass, number: UInt32, constructed: Bool) {
        precondition(number <= ASN1Tag.maxNumber, "ASN.1 tag number too large")
        rawValue = UInt32(tagClass.rawValue) << 30 | (constructed ? 1 << 29 : 0) | number
    }

    @inlinable
    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The tag's class.
    @inlinable public var tagClass: TagClass { TagClass(rawValue: UInt8(rawValue >> 30))! }
    /// The tag number within its class.
    @inlinable public var number: UInt32 { rawValue & ASN1Tag.maxNumber }
    /// True for the constructed encoding (bit 6 of the identifier octet).
    @inlinable public var isConstructed: Bool { rawValue & (1 << 29) != 0 }

    /// The same class and number with the constructed bit set.
    @inlinable public var asConstructed: ASN1Tag { ASN1Tag(rawValue: rawValue | 1 << 29) }
    /// The same class and number with the constructed bit cleared.
    @inlinable public var asPrimitive: ASN1Tag { ASN1Tag(rawValue: rawValue & ~(1 << 29)) }

    /// `[n]` context-specific tag, constructed by default (EXPLICIT tagging and implicit SEQUENCE/SET).
    @inlinable
    public static func contextSpecific(_ number: UInt32, constructed: Bool = true) -> ASN1Tag {
        ASN1Tag(.contextSpecific, number: number, constructed: constructed)
    }

    /// A universal tag from its number (constant-folded where the tag is used).
    @inlinable static func universal(_ number: UInt32, constructed: Bool = false) -> ASN1Tag {
        ASN1Tag(rawValue: (constructed ? 1 << 29 : 0) | number)
    }

    /// The tag of a low-tag-number identifier octet (number below 31, X.690 §8.1.2.3).
    @inlinable
    init(identifierOctet octet: UInt8) {
        rawValue = UInt32(octet >> 6) << 30 | UInt32(octet & 0x20) << 24 | UInt32(octet & 0x1F)
    }

    // Universal tags (X.680 §8.4). Strings and times are the primitive encodings; BER may also
    // carry them constructed (`asConstructed`).
    /// BOOLEAN, universal 1.
    @inlinable public static var boolean: ASN1Tag { universal(1) }
    /// INTEGER, universal 2.
    @inlinable public static var integer: ASN1Tag { universal(2) }
    /// BIT STRING, universal 3 (primitive).
    @inlinable public static var bitString: ASN1Tag { universal(3) }
    /// OCTET STRING, universal 4 (primitive).
    @inlinable public static var octetString: ASN1Tag { universal(4) }
    /// NULL, universal 5.
    @inlinable public static var null: ASN1Tag { universal(5) }
    /// OBJECT IDENTIFIER, universal 6.
    @inlinable public static var objectIdentifier: ASN1Tag { universal(6) }
    /// ENUMERATED, universal 10.
    @inlinable public static var enumerated: ASN1Tag { universal(10) }
    /// UTF8String, universal 12 (primitive).
    @inlinable public static var utf8String: ASN1Tag { universal(12) }
    /// SEQUENCE and SEQUENCE OF, universal 16, constructed.
    @inlinable public static var sequence: ASN1Tag { universal(16, constructed: true) }
    /// SET and SET OF, universal 17, constructed.
    @inlinable public static var set: ASN1Tag { universal(17, constructed: true) }
    /// NumericString, universal 18 (primitive).
    @inlinable public static var numericString: ASN1Tag { universal(18) }
    /// PrintableString, universal 19 (primitive).
    @inlinable public static var printableString: ASN1Tag { universal(19) }
    /// TeletexString (T61String), universal 20 (primitive).
    @inlinable public static var t61String: ASN1Tag { universal(20) }
    /// IA5String, universal 22 (primitive).
    @inlinable public static var ia5String: ASN1Tag { universal(22) }
    /// UTCTime, universal 23 (primitive).
    @inlinable public static var utcTime: ASN1Tag { universal(23) }
    /// GeneralizedTime, universal 24 (primitive).
    @inlinable public static var generalizedTime: ASN1Tag { universal(24) }
    /// VisibleString, universal 26 (primitive).
    @inlinable public static var visibleString: ASN1Tag { universal(26) }
    /// UniversalString (UTF-32BE), universal 28 (primitive).
    @inlinable public static var universalString: ASN1Tag { universal(28) }
    /// BMPString (UTF-16BE, Basic Multilingual Plane only), universal 30 (primitive).
    @inlinable public static var bmpString: ASN1Tag { universal(30) }

    /// `[UNIVERSAL 16]` etc. for universal tags, `[n]`, `[APPLICATION n]`, `[PRIVATE n]` otherwise,
    /// with ` cons` appended to constructed encodings of universal types that are normally
    /// primitive (a BER constructed string, or a malformed constructed INTEGER).
    public var description: String {
        let kind = isConstructed && tagClass == .universal && !mustBeConstructed ? " cons" : ""
        switch tagClass {
        case .universal: return "[UNIVERSAL \(number)]" + kind
        case .application: return "[APPLICATION \(number)]" + kind
        case .contextSpecific: return "[\(number)]" + kind
        case .private: return "[PRIVATE \(number)]" + kind
        }
    }
}

extension ASN1Tag {
    /// Universal type numbers whose encoding is always primitive, in BER as in DER:
    /// BOOLEAN (X.690 §8.2.1), INTEGER (§8.3.1), NULL (§8.8.1), OBJECT IDENTIFIER (§8.19.1),
    /// REAL (§8.5.1), ENUMERATED (§8.4), RELATIVE-OID (§8.20.1).
    @inlinable static var primitiveOnly: UInt32 { 1 << 1 | 1 << 2 | 1 << 5 | 1 << 6 | 1 << 9 | 1 << 10 | 1 << 13 }
    /// Always constructed: EXTERNAL (§8.18.1), EMBEDDED PDV (§8.17.1), SEQUENCE (§8.9.1),
    /// SET (§8.11.1), CHARACTER STRING (§8.24: an IMPLICIT SEQUENCE).
    @inlinable static var constructedOnly: UInt32 { 1 << 8 | 1 << 11 | 1 << 16 | 1 << 17 | 1 << 29 }
    /// String and time types: BER may encode them constructed (X.690 §8.6.3, §8.7.3, §8.23.6),
    /// DER must not (X.690 §10.2).
    @inlinable static var strings: UInt32 { 1 << 3 | 1 << 4 | 1 << 12 | 0x1FFC_0000 | 1 << 30 }

    /// Bit `number` of a universal-type mask; 0 for other classes and numbers above 30.
    @inlinable
    func universalBit(in mask: UInt32) -> UInt32 {
        guard rawValue & 0xC000_0000 == 0, number < 31 else { return 0 }
        return mask & (1 << number)
    }

    @inlinable var mustBePrimitive: Bool { universalBit(in: Self.primitiveOnly) != 0 }
    @inlinable var mustBeConstructed: Bool { universalBit(in: Self.constructedOnly) != 0 }
    @inlinable var isStringType: Bool { universalBit(in: Self.strings) != 0 }

    /// True when `formError(rules:)` is `nil`: the check on the reader's fast path.
    @inlinable @inline(__always)
    func hasAllowedForm(rules: EncodingRules) -> Bool {
        guard rawValue & 0xC000_0000 == 0 else { return true }
        let number = self.number
        guard number != 0 else { return false }
        guard number < 31 else { return true }
        let bit: UInt32 = 1 << number
        if isConstructed {
            return Self.primitiveOnly & bit == 0 && (rules == .ber || Self.strings & bit == 0)
        }
        return Self.constructedOnly & bit == 0
    }

    /// What is wrong with this tag's primitive/constructed form under `rules`, if anything:
    /// end-of-contents where an element belongs, a constructed primitive-only type, a primitive
    /// constructed-only type, or (DER) a constructed string.
    @inlinable
    func formError(rules: EncodingRules) -> ASN1Error.Kind? {
        guard rawValue & 0xC000_0000 == 0 else { return nil }   // only universal types are fixed
        if number == 0 { return .unexpectedEndOfContents }
        if isConstructed {
            if mustBePrimitive { return .constructedPrimitiveType }
            if rules == .der && isStringType { return .constructedStringInDER }
        } else if mustBeConstructed {
            return .primitiveConstructedType
        }
        return nil
    }
}
