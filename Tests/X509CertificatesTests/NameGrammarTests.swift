import DER
import ReceiptTestSupport
import Testing
import X509Certificates

/// Names read to their grammar (RFC 5280 §4.1.2.4, X.501, X.690 §11.6): every rule fails with its
/// own `NameRule`, at the element that breaks it, in the issuer as in the subject.
@Suite("Name grammar")
struct NameGrammarTests {
    typealias N = NameParts

    /// The error of parsing a certificate whose issuer (and, separately, subject) is `name`;
    /// both must be the same kind, at the same place within the name.
    static func nameError(_ name: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> (kind: CertificateError.Kind, offsetInName: Int)? {
        var results: [(CertificateError.Kind, Int)] = []
        for der in [NamedCertificate.issuer(name), NamedCertificate.subject(name)] {
            let thrown = #expect(throws: CertificateError.self, sourceLocation: sourceLocation) { try Certificate(derEncoded: der) }
            guard let error = thrown, let start = NamedCertificate.offset(of: name, in: der, after: 10) else { return nil }
            results.append((error.kind, error.offset - start))
        }
        #expect(results[0] == results[1], "issuer and subject disagree", sourceLocation: sourceLocation)
        return results[0]
    }

    static func parses(_ name: [UInt8]) -> Bool {
        (try? Certificate(derEncoded: NamedCertificate.issuer(name))) != nil && (try? Certificate(derEncoded: NamedCertificate.subject(name))) != nil
    }

    // MARK: Well-formed names

    @Test func wellFormedNamesParse() throws {
        #expect(Self.parses(N.plain()))
        // A multi-valued RDN in DER order (the shorter encoding first here).
        let ou = N.attribute(N.organizationalUnit, N.utf8("Unit"))
        let cn = N.attribute(N.commonName, N.utf8("Common Name"))
        #expect(Self.parses(N.name([N.rdn(ou, cn)].sorted { $0.lexicographicallyPrecedes($1) })))
        // Each DirectoryString type, non-ASCII UTF-8 included.
        for value in [
            N.utf8("Grüße 東京"), N.printable("A-Z a-z 0-9 '()+,-./:=?"), N.element(0x14, [0x41, 0xE9]),
            N.element(0x1E, [0x00, 0x41, 0x4E, 0x71]), N.element(0x1C, [0x00, 0x01, 0xF6, 0x00]),
        ] {
            #expect(Self.parses(N.name([N.rdn(N.attribute(N.commonName, value))])), "\(value)")
        }
        // emailAddress and domainComponent as IA5String, serialNumber as PrintableString.
        #expect(Self.parses(N.name([N.rdn(N.attribute(OIDs.emailAddress, N.ia5("someone@example.com")))])))
        #expect(Self.parses(N.name([N.rdn(N.attribute(OIDs.domainComponent, N.ia5("example")))])))
        #expect(Self.parses(N.name([N.rdn(N.attribute(N.serialNumber, N.printable("ABC-123")))])))
        // Types RFC 5280 Appendix A does not list stay opaque: any one DER element.
        let street = ASN1ObjectIdentifier("2.5.4.9")
        #expect(Self.parses(N.name([N.rdn(N.attribute(street, N.element(0x02, [0x05])))])))
        #expect(Self.parses(N.name([N.rdn(N.attribute(ASN1ObjectIdentifier("1.2.3.4"), N.name([])))])))
        // An empty subject is a valid Name (its use is for subjectAltName, RFC 5280 §4.1.2.6).
        #expect((try? Certificate(derEncoded: NamedCertificate.subject(N.name([])))) != nil)
    }

    /// Names are still compared as raw bytes: a name that means the same but is encoded
    /// differently is another name.
    @Test func namesCompareAsBytes() throws {
        let printable = N.name([N.rdn(N.attribute(N.commonName, N.printable("Example")))])
        let utf8 = N.name([N.rdn(N.attribute(N.commonName, N.utf8("Example")))])
        let a = try Certificate(derEncoded: NamedCertificate.issuer(printable))
        let b = try Certificate(derEncoded: NamedCertificate.issuer(utf8))
        #expect(a.issuerDescription == b.issuerDescription)
        #expect(a.issuer != b.issuer)
    }

    // MARK: One rule, one error

    @Test func rdnThatIsASequenceIsRefused() {
        let name = N.name([DERParts.wrap(0x30, [N.attribute(N.country, N.printable("US"))])])
        #expect(Self.nameError(name)! == (.invalidName(.rdnNotSet), 2))
    }

    @Test func emptyRDNIsRefused() {
        let name = N.name([N.rdn(N.attribute(N.country, N.printable("US"))), DERParts.wrap(0x31, [])])
        #expect(Self.nameError(name)! == (.invalidName(.emptyRDN), 2 + 13))
    }

    @Test func unsortedMultiValuedRDNIsRefused() {
        let ou = N.attribute(N.organizationalUnit, N.utf8("Unit"))
        let cn = N.attribute(N.commonName, N.utf8("Common Name"))
        let (first, second) = cn.lexicographicallyPrecedes(ou) ? (ou, cn) : (cn, ou)
        let name = N.name([N.rdn(first, second)])
        // Reported at the element out of order.
        #expect(Self.nameError(name)! == (.invalidName(.rdnNotSorted), 4 + first.count))
    }

    @Test func attributeWithThreeElementsIsRefused() {
        let three = DERParts.wrap(0x30, [N.oid(N.commonName), N.utf8("A"), N.utf8("B")])
        // At the third element: after the SEQUENCE header, the OID (5) and the first value (3).
        #expect(Self.nameError(N.name([N.rdn(three)]))! == (.invalidName(.attributeFieldCount), 6 + 5 + 3))
    }

    @Test func attributeWithOnlyATypeIsRefused() {
        let one = DERParts.wrap(0x30, [N.oid(N.commonName)])
        #expect(Self.nameError(N.name([N.rdn(one)]))! == (.invalidName(.attributeFieldCount), 4))
    }

    @Test func attributeThatIsNotASequenceIsRefused() {
        let set = DERParts.wrap(0x31, [N.oid(N.commonName), N.utf8("A")])
        #expect(Self.nameError(N.name([N.rdn(set)]))! == (.invalidName(.attributeNotSequence), 4))
    }

    @Test func attributeTypeThatIsNotAnOIDIsRefused() {
        let integerType = DERParts.wrap(0x30, [N.element(0x02, [0x55]), N.utf8("A")])
        #expect(Self.nameError(N.name([N.rdn(integerType)]))! == (.invalidName(.attributeTypeNotOID), 6))
    }

    @Test(arguments: ["user@example", "wild*card", "under_score", "amp&", "Ünïcode"])
    func printableStringWithForbiddenCharactersIsRefused(_ text: String) {
        let name = N.name([N.rdn(N.attribute(N.commonName, N.printable(text)))])
        #expect(Self.nameError(name)! == (.invalidName(.invalidCharacters(N.commonName, .printable)), 6 + 5))
    }

    @Test(arguments: [[0xC3, 0x28], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xFF]] as [[UInt8]])
    func invalidUTF8IsRefused(_ bytes: [UInt8]) {
        let name = N.name([N.rdn(N.attribute(N.organization, N.element(0x0C, [0x41] + bytes)))])
        #expect(Self.nameError(name)! == (.invalidName(.invalidCharacters(N.organization, .utf8)), 6 + 5))
    }

    @Test func invalidBMPAndUniversalStringsAreRefused() {
        let oddBMP = N.name([N.rdn(N.attribute(N.commonName, N.element(0x1E, [0x00, 0x41, 0x00])))])
        #expect(Self.nameError(oddBMP)?.kind == .invalidName(.invalidCharacters(N.commonName, .bmp)))
        let surrogate = N.name([N.rdn(N.attribute(N.commonName, N.element(0x1E, [0xD8, 0x00])))])
        #expect(Self.nameError(surrogate)?.kind == .invalidName(.invalidCharacters(N.commonName, .bmp)))
        let beyondUnicode = N.name([N.rdn(N.attribute(N.commonName, N.element(0x1C, [0x00, 0x11, 0x00, 0x00])))])
        #expect(Self.nameError(beyondUnicode)?.kind == .invalidName(.invalidCharacters(N.commonName, .universal)))
    }

    @Test(arguments: ["USA", "U", ""])
    func countryThatIsNotTwoCharactersIsRefused(_ text: String) {
        let name = N.name([N.rdn(N.attribute(N.country, N.printable(text)))])
        let expected: NameRule = text.isEmpty ? .emptyString(N.country) : .countryNotTwoCharacters
        #expect(Self.nameError(name)! == (.invalidName(expected), 6 + 5))
    }

    @Test func countryThatIsNotAPrintableStringIsRefused() {
        let name = N.name([N.rdn(N.attribute(N.country, N.utf8("US")))])
        #expect(Self.nameError(name)! == (.invalidName(.wrongStringType(N.country, expected: .printable)), 6 + 5))
        let bad = N.name([N.rdn(N.attribute(N.country, N.printable("U@")))])
        #expect(Self.nameError(bad)?.kind == .invalidName(.invalidCharacters(N.country, .printable)))
    }

    @Test func emailAddressMustBeIA5() {
        let utf8 = N.name([N.rdn(N.attribute(OIDs.emailAddress, N.utf8("a@example.com")))])
        #expect(Self.nameError(utf8)?.kind == .invalidName(.wrongStringType(OIDs.emailAddress, expected: .ia5)))
        let eightBit = N.name([N.rdn(N.attribute(OIDs.emailAddress, N.element(0x16, [0x61, 0xC3, 0xA9])))])
        #expect(Self.nameError(eightBit)?.kind == .invalidName(.invalidCharacters(OIDs.emailAddress, .ia5)))
        let serial = N.name([N.rdn(N.attribute(N.serialNumber, N.utf8("123")))])
        #expect(Self.nameError(serial)?.kind == .invalidName(.wrongStringType(N.serialNumber, expected: .printable)))
    }

    @Test func directoryStringTypesOnly() {
        for value in [N.ia5("Example"), N.element(0x1A, Array("Example".utf8)), N.element(0x02, [0x01]), N.name([])] {
            let name = N.name([N.rdn(N.attribute(N.commonName, value))])
            #expect(Self.nameError(name)! == (.invalidName(.notDirectoryString(N.commonName)), 6 + 5), "\(value)")
        }
    }

    @Test func emptyDirectoryStringIsRefused() {
        let name = N.name([N.rdn(N.attribute(N.organization, N.utf8("")))])
        #expect(Self.nameError(name)! == (.invalidName(.emptyString(N.organization)), 6 + 5))
    }

    /// Opaque values need only be one DER element, but DER they must be, inside too.
    @Test func opaqueValuesMustBeDER() {
        let street = ASN1ObjectIdentifier("2.5.4.9")
        let boolean = N.name([N.rdn(N.attribute(street, N.element(0x01, [0x01])))])
        #expect(Self.nameError(boolean)?.kind == .encoding(.invalidBoolean))
        let nested = N.name([N.rdn(N.attribute(street, DERParts.wrap(0x30, [N.printable("a@b")])))])
        #expect(Self.nameError(nested)?.kind == .encoding(.invalidString))
    }

    /// RFC 5280 §4.1.2.4: the issuer MUST be a non-empty name (the subject may be empty).
    @Test func emptyIssuerIsRefused() throws {
        let der = NamedCertificate.issuer(N.name([]))
        let error = #expect(throws: CertificateError.self) { try Certificate(derEncoded: der) }
        #expect(error?.kind == .invalidName(.emptyIssuer))
        #expect(error.map { Array(der[$0.offset ..< $0.offset + 2]) } == [0x30, 0x00])
    }

    /// Each rule has a reason that cites its source.
    @Test func reasonsCiteTheirRule() {
        let rules: [NameRule] = [
            .rdnNotSet, .emptyRDN, .rdnNotSorted, .attributeNotSequence, .attributeFieldCount,
            .attributeTypeNotOID, .notDirectoryString(N.commonName),
            .wrongStringType(N.country, expected: .printable), .emptyString(N.organization),
            .invalidCharacters(N.commonName, .printable), .countryNotTwoCharacters, .emptyIssuer,
        ]
        for rule in rules {
            #expect(rule.reason.contains("RFC 5280") || rule.reason.contains("X.690") || rule.reason.contains("X.680"), "\(rule)")
        }
        #expect(Set(rules.map(\.reason)).count == rules.count)
        #expect(NameRule.invalidCharacters(N.commonName, .printable).reason.contains("CN (2.5.4.3)"))
        #expect(CertificateError.Kind.invalidName(.rdnNotSet).reason.hasPrefix("invalid name: "))
    }
}
