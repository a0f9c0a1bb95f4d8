import DER
import Foundation
import ReceiptTestSupport
import TestHelpers
import X509Certificates

// Helpers for the X.509 tests: Names built element by element, a synthetic certificate around a
// given issuer or subject, and every certificate the shared fixtures hold.

/// Name parts as DER, built by hand so that a test can break exactly one rule.
enum NameParts {
    static let commonName = ASN1ObjectIdentifier("2.5.4.3")
    static let country = ASN1ObjectIdentifier("2.5.4.6")
    static let organization = ASN1ObjectIdentifier("2.5.4.10")
    static let organizationalUnit = ASN1ObjectIdentifier("2.5.4.11")
    static let serialNumber = ASN1ObjectIdentifier("2.5.4.5")

    /// Name ::= SEQUENCE OF RelativeDistinguishedName.
    static func name(_ rdns: [[UInt8]]) -> [UInt8] { DERParts.wrap(0x30, rdns) }
    /// RelativeDistinguishedName ::= SET OF AttributeTypeAndValue, in the order given.
    static func rdn(_ attributes: [UInt8]...) -> [UInt8] { DERParts.wrap(0x31, attributes) }
    /// AttributeTypeAndValue ::= SEQUENCE { type, value }.
    static func attribute(_ type: ASN1ObjectIdentifier, _ value: [UInt8]) -> [UInt8] {
        DERParts.wrap(0x30, [oid(type), value])
    }
    static func oid(_ type: ASN1ObjectIdentifier) -> [UInt8] { DERParts.encode { $0.appendObjectIdentifier(type) } }
    /// A primitive element with the low tag number `tag` and raw content octets.
    static func element(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { DERParts.wrap(tag, [content]) }
    static func printable(_ text: String) -> [UInt8] { element(0x13, Array(text.utf8)) }
    static func utf8(_ text: String) -> [UInt8] { element(0x0C, Array(text.utf8)) }
    static func ia5(_ text: String) -> [UInt8] { element(0x16, Array(text.utf8)) }

    /// C=US, O=Example, CN=<common name>: a well-formed name.
    static func plain(_ common: String = "Example") -> [UInt8] {
        name([
            rdn(attribute(country, printable("US"))), rdn(attribute(organization, utf8("Example Inc."))),
            rdn(attribute(commonName, utf8(common))),
        ])
    }
}

/// Synthetic certificates around a Name under test (unsigned: parsing checks no signature).
enum NamedCertificate {
    static let chain = TestChain()

    /// The test leaf with `name` as its issuer.
    static func issuer(_ name: [UInt8]) -> [UInt8] {
        chain.leaf.assembled(issuerName: name, issuerKey: nil) { _ in }
    }

    /// The test leaf with `name` as its subject.
    static func subject(_ name: [UInt8]) -> [UInt8] {
        chain.leaf.assembled(issuerName: NameParts.plain("Issuer"), issuerKey: nil) { $0[TBSField.subject] = name }
    }

    /// Where `part` first occurs in `bytes`.
    static func offset(of part: [UInt8], in bytes: [UInt8], after start: Int = 0) -> Int? {
        guard part.count <= bytes.count else { return nil }
        return (start ... bytes.count - part.count).first { bytes[$0 ..< $0 + part.count].elementsEqual(part) }
    }
}

/// Every certificate the shared fixtures hold, by a name saying where it came from.
enum FixtureCertificates {
    struct Entry {
        let origin: String
        let der: [UInt8]
    }

    static func all() throws -> [Entry] {
        var entries: [Entry] = []
        for file in try Fixtures.files(in: "certs", withExtension: "cer") {
            entries.append(Entry(origin: "certs/\(file)", der: try Fixtures.bytes("certs/\(file)")))
        }
        for file in try Fixtures.files(in: "receipts", withExtension: "der") {
            for (index, der) in try embedded(in: Fixtures.bytes("receipts/\(file)")).enumerated() {
                entries.append(Entry(origin: "receipts/\(file) certificate \(index)", der: der))
            }
        }
        for file in try Fixtures.files(in: "jws", withExtension: "jws") {
            for (index, der) in try x5c(Fixtures.bytes("jws/\(file)")).enumerated() {
                entries.append(Entry(origin: "jws/\(file) x5c[\(index)]", der: der))
            }
        }
        return entries
    }

    /// The certificates of a receipt's SignedData, found with the plain BER reader (ContentInfo →
    /// [0] → SignedData → the `[0]` set after version, digestAlgorithms and encapContentInfo).
    static func embedded(in receipt: [UInt8]) throws -> [[UInt8]] {
        try receipt.withUnsafeBytes { raw in
            var outer = ASN1Reader(raw, rules: .ber)
            var contentInfo = try outer.readSequence()
            _ = try contentInfo.read(.objectIdentifier)
            var explicit = try contentInfo.read(.contextSpecific(0)).children()
            var fields = try explicit.readSequence()
            for _ in 0 ..< 3 { _ = try fields.readElement() }
            guard let set = try fields.readOptional(.contextSpecific(0)) else { return [] }
            var entries = try set.children()
            var certificates: [[UInt8]] = []
            while !entries.isAtEnd { certificates.append(Array(receipt[try entries.readElement().range])) }
            return certificates
        }
    }

    /// The DER certificates of a compact JWS's `x5c` header (RFC 7515 §4.1.6: standard base64).
    static func x5c(_ token: [UInt8]) throws -> [[UInt8]] {
        let text = String(decoding: token, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let header = text.split(separator: ".").first, let json = base64URL(String(header)),
            let object = try JSONSerialization.jsonObject(with: json) as? [String: Any],
            let chain = object["x5c"] as? [String]
        else { throw FixtureError.missing("x5c header") }
        return try chain.map { entry in
            guard let der = Data(base64Encoded: entry) else { throw FixtureError.missing("x5c entry in base64") }
            return [UInt8](der)
        }
    }

    static func base64URL(_ text: String) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard)
    }
}
