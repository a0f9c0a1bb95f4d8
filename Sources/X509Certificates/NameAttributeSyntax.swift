import DER

/// The string syntax RFC 5280 Appendix A gives the value of a naming attribute. Types it does not
/// list stay opaque (their value need only be one DER element). The upper bounds (`ub-…`) are not
/// enforced: deployed certificates exceed them, and neither OpenSSL nor swift-certificates does.
enum NameAttributeSyntax: Equatable {
    /// `DirectoryString`: TeletexString, PrintableString, UniversalString, UTF8String or
    /// BMPString, `SIZE (1..MAX)`.
    case directoryString
    /// One string type, `SIZE (1..MAX)`.
    case string(ASN1StringKind)
    /// `X520countryName ::= PrintableString (SIZE (2))`.
    case countryName

    /// The five choices of DirectoryString (RFC 5280 §4.1.2.4).
    static let directoryStringKinds: [ASN1StringKind] = [.t61, .printable, .universal, .utf8, .bmp]

    /// The syntax of the attribute type whose OBJECT IDENTIFIER content is `oid`, or `nil` when
    /// Appendix A does not list it.
    init?(_ oid: UnsafeRawBufferPointer) {
        // id-at (2.5.4) is 55 04, followed by one octet for every type listed here.
        if oid.count == 3, oid[0] == 0x55, oid[1] == 0x04, let syntax = Self.idAt(oid[2]) {
            self = syntax
        } else if OIDs.emailAddress.matches(oid) || OIDs.domainComponent.matches(oid) {
            // emailAddress ::= IA5String (SIZE (1..ub-emailaddress-length));
            // DomainComponent ::= IA5String.
            self = .string(.ia5)
        } else {
            return nil
        }
    }

    /// id-at-… (RFC 5280 Appendix A.1).
    private static func idAt(_ number: UInt8) -> NameAttributeSyntax? {
        switch number {
        // name 41, surname 4, givenName 42, initials 43, generationQualifier 44 (X520name),
        // commonName 3, localityName 7, stateOrProvinceName 8, organizationName 10,
        // organizationalUnitName 11, title 12, pseudonym 65.
        case 41, 4, 42, 43, 44, 3, 7, 8, 10, 11, 12, 65: return .directoryString
        case 6: return .countryName
        // serialNumber 5 (X520SerialNumber), dnQualifier 46 (X520dnQualifier).
        case 5, 46: return .string(.printable)
        default: return nil
        }
    }
}
