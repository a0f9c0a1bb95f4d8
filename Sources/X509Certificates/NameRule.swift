import DER

/// The rule of the Name grammar (RFC 5280 §4.1.2.4, X.501, X.690 §11.6) a Name broke: one case
/// per rule, carried by `CertificateError.Kind.invalidName`.
public enum NameRule: Sendable, Hashable {
    /// A RelativeDistinguishedName is not a SET (RFC 5280 §4.1.2.4).
    case rdnNotSet
    /// A RelativeDistinguishedName is empty (`SET SIZE (1..MAX)`, RFC 5280 §4.1.2.4).
    case emptyRDN
    /// A multi-valued RelativeDistinguishedName's SET OF is not in DER order (X.690 §11.6).
    case rdnNotSorted
    /// An AttributeTypeAndValue is not a SEQUENCE (RFC 5280 §4.1.2.4).
    case attributeNotSequence
    /// An AttributeTypeAndValue holds something other than exactly a type and a value.
    case attributeFieldCount
    /// An attribute type is not an OBJECT IDENTIFIER (`AttributeType`, RFC 5280 §4.1.2.4).
    case attributeTypeNotOID
    /// The value of an attribute that RFC 5280 Appendix A types as `DirectoryString` is none of
    /// its five string types.
    case notDirectoryString(ASN1ObjectIdentifier)
    /// The value of an attribute that RFC 5280 Appendix A types as one string type (countryName,
    /// serialNumber and dnQualifier: PrintableString; emailAddress and domainComponent:
    /// IA5String) is of another type.
    case wrongStringType(ASN1ObjectIdentifier, expected: ASN1StringKind)
    /// A string value is empty where its type says `SIZE (1..MAX)` (RFC 5280 Appendix A).
    case emptyString(ASN1ObjectIdentifier)
    /// A string value holds characters, or an encoding, its string type does not allow
    /// (X.680 §41: PrintableString's set, IA5's 7 bits; valid UTF-8, UCS-2, UCS-4).
    case invalidCharacters(ASN1ObjectIdentifier, ASN1StringKind)
    /// countryName is not two characters (`PrintableString (SIZE (2))`, RFC 5280 Appendix A).
    case countryNotTwoCharacters
    /// A certificate's issuer is an empty Name (RFC 5280 §4.1.2.4: it MUST be non-empty).
    case emptyIssuer
    /// The Name is larger than `X509Limits.maxNameSize`.
    case tooLarge

    /// One line saying which rule was broken, with its source.
    public var reason: String {
        switch self {
        case .rdnNotSet: return "a RelativeDistinguishedName is not a SET (RFC 5280 §4.1.2.4)"
        case .emptyRDN: return "an empty RelativeDistinguishedName (SET SIZE (1..MAX), RFC 5280 §4.1.2.4)"
        case .rdnNotSorted: return "a multi-valued RelativeDistinguishedName is not in DER order (X.690 §11.6)"
        case .attributeNotSequence: return "an AttributeTypeAndValue is not a SEQUENCE (RFC 5280 §4.1.2.4)"
        case .attributeFieldCount: return "an AttributeTypeAndValue does not hold exactly a type and a value (RFC 5280 §4.1.2.4)"
        case .attributeTypeNotOID: return "an attribute type is not an OBJECT IDENTIFIER (RFC 5280 §4.1.2.4)"
        case .notDirectoryString(let oid):
            return "\(Self.name(oid)) is not a DirectoryString (RFC 5280 Appendix A)"
        case .wrongStringType(let oid, let expected):
            return "\(Self.name(oid)) is not a \(Self.name(expected)) (RFC 5280 Appendix A)"
        case .emptyString(let oid): return "\(Self.name(oid)) is empty (SIZE (1..MAX), RFC 5280 Appendix A)"
        case .invalidCharacters(let oid, let kind):
            return "\(Self.name(oid)) holds characters a \(Self.name(kind)) does not allow (X.680 §41)"
        case .countryNotTwoCharacters: return "countryName is not two characters (PrintableString (SIZE (2)), RFC 5280 Appendix A)"
        case .emptyIssuer: return "the issuer is an empty Name (RFC 5280 §4.1.2.4)"
        case .tooLarge: return "a Name larger than \(X509Limits.maxNameSize) bytes"
        }
    }

    /// `CN (2.5.4.3)`, or the dotted identifier of a type without a short name.
    static func name(_ oid: ASN1ObjectIdentifier) -> String {
        guard let short = OIDs.nameAttributes.first(where: { $0.0 == oid })?.1 else { return oid.description }
        return "\(short) (\(oid))"
    }

    /// The ASN.1 name of a string type.
    static func name(_ kind: ASN1StringKind) -> String {
        switch kind {
        case .utf8: return "UTF8String"
        case .numeric: return "NumericString"
        case .printable: return "PrintableString"
        case .t61: return "TeletexString"
        case .ia5: return "IA5String"
        case .visible: return "VisibleString"
        case .universal: return "UniversalString"
        case .bmp: return "BMPString"
        }
    }
}
