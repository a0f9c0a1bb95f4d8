/// An ASN.1 tag: class, primitive/constructed bit and tag number folded into one 32-bit value,
/// so that a constructed encoding never compares equal to the primitive tag of the same number.
///
/// Layout (as BoringSSL's `CBS_ASN1_TAG`): bits 31–30 class, bit 29 constructed, bits 28–0 number.
public struct ASN1Tag: Hashable, Sendable, CustomStringConvertible {
    /// The folded value.
    public let rawValue: UInt32

    /// The four tag classes of X.690 §8.1.2.2 (bits 8–7 of the identifier octet).
    public enum TagClass: UInt8, Sendable {
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

    @inlinable static func universal(_ number: UInt32, constructed: Bool = false) -> ASN1Tag {
        ASN1Tag(.universal, number: number, constructed: constructed)
    }

    // Universal tags (X.680 §8.4). Strings and times are the primitive encodings; BER may also
    // carry them constructed (`asConstructed`).
    public static let boolean = universal(1)
    public static let integer = universal(2)
    public static let bitString = universal(3)
    public static let octetString = universal(4)
    public static let null = universal(5)
    public static let objectIdentifier = universal(6)
    public static let enumerated = universal(10)
    public static let utf8String = universal(12)
    public static let sequence = universal(16, constructed: true)
    public static let set = universal(17, constructed: true)
    public static let numericString = universal(18)
    public static let printableString = universal(19)
    public static let t61String = universal(20)
    public static let ia5String = universal(22)
    public static let utcTime = universal(23)
    public static let generalizedTime = universal(24)
    public static let visibleString = universal(26)
    public static let universalString = universal(28)
    public static let bmpString = universal(30)

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
    /// Universal types whose encoding is always primitive, in BER as in DER:
    /// BOOLEAN (X.690 §8.2.1), INTEGER (§8.3.1), NULL (§8.8.1), OBJECT IDENTIFIER (§8.19.1),
    /// REAL (§8.5.1), ENUMERATED (§8.4), RELATIVE-OID (§8.20.1).
    @inlinable
    var mustBePrimitive: Bool {
        guard tagClass == .universal else { return false }
        switch number {
        case 1, 2, 5, 6, 9, 10, 13: return true
        default: return false
        }
    }

    /// SEQUENCE (X.690 §8.9.1), SET (§8.11.1), EXTERNAL (§8.18.1), EMBEDDED PDV (§8.17.1) and
    /// CHARACTER STRING (§8.24: an IMPLICIT SEQUENCE) are always constructed.
    @inlinable
    var mustBeConstructed: Bool {
        guard tagClass == .universal else { return false }
        switch number {
        case 8, 11, 16, 17, 29: return true
        default: return false
        }
    }

    /// String and time types: BER may encode them constructed (X.690 §8.6.3, §8.7.3, §8.23.6),
    /// DER must not (X.690 §10.2).
    @inlinable
    var isStringType: Bool {
        guard tagClass == .universal else { return false }
        switch number {
        case 3, 4, 12, 18...28, 30: return true
        default: return false
        }
    }
}
