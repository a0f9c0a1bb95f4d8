import DER
import ReceiptTestSupport
import Testing
import X509Certificates

/// `Certificate.ocspResponderURLs` on synthetic authorityInfoAccess values (RFC 5280 §4.2.2.1).
@Suite struct AuthorityInformationAccessTests {
    /// The test leaf carrying authorityInfoAccess with `value` as its extnValue contents.
    static func leaf(aia value: [UInt8]) throws -> Certificate {
        let chain = TestChain()
        var leaf = chain.leaf
        leaf.extensions.append(TestCertificate.Extension(oid: OIDs.authorityInfoAccess, value: value))
        return try Certificate(derEncoded: leaf.signed(by: chain.intermediate))
    }

    /// AccessDescription { method, location } with the location's raw DER.
    static func access(_ method: ASN1ObjectIdentifier, _ location: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        writer.appendSequence { description in
            description.appendObjectIdentifier(method)
            description.appendEncoded(location)
        }
        return writer.bytes
    }

    static func uri(_ text: String) -> [UInt8] {
        var writer = DERWriter()
        writer.append(.contextSpecific(6, constructed: false), content: Array(text.utf8))
        return writer.bytes
    }

    static func list(_ descriptions: [[UInt8]]) -> [UInt8] {
        var writer = DERWriter()
        writer.appendSequence { list in for description in descriptions { list.appendEncoded(description) } }
        return writer.bytes
    }

    @Test func ocspLocationsInOrder() throws {
        var dnsName = DERWriter()
        dnsName.append(.contextSpecific(2, constructed: false), content: Array("ocsp.example.test".utf8))
        let value = Self.list([
            Self.access(OIDs.caIssuersAccessMethod, Self.uri("http://ca.example.test/ca.cer")),
            Self.access(OIDs.ocspAccessMethod, Self.uri("http://ocsp.example.test/a")),
            Self.access(OIDs.ocspAccessMethod, dnsName.bytes),
            Self.access(OIDs.ocspAccessMethod, Self.uri("http://ocsp.example.test/b")),
        ])
        let certificate = try Self.leaf(aia: value)
        #expect(try certificate.ocspResponderURLs == ["http://ocsp.example.test/a", "http://ocsp.example.test/b"])
        let onlyIssuers = try Self.leaf(aia: Self.list([Self.access(OIDs.caIssuersAccessMethod, Self.uri("http://ca.example.test/ca.cer"))]))
        #expect(try onlyIssuers.ocspResponderURLs == [])
    }

    @Test func malformedValuesThrowAtTheirOffset() throws {
        let uriNotIA5 = Self.access(OIDs.ocspAccessMethod, [0x86, 0x02, 0x68, 0xFF])
        let cases: [(String, [UInt8], CertificateError.Kind)] = [
            ("empty list", [0x30, 0x00], .emptyList),
            ("trailing byte", Self.list([Self.access(OIDs.ocspAccessMethod, Self.uri("http://a"))]) + [0x00], .encoding(.trailingBytes)),
            ("URI not IA5", Self.list([uriNotIA5]), .encoding(.invalidString)),
            ("not a SEQUENCE", [0x31, 0x00], .encoding(.unexpectedTag(expected: .sequence, found: .set))),
        ]
        for (name, value, kind) in cases {
            let certificate = try Self.leaf(aia: value)
            do {
                _ = try certificate.ocspResponderURLs
                Issue.record("\(name): accepted")
            } catch {
                #expect(error.kind == kind, "\(name)")
                #expect(certificate.range.contains(error.offset), "\(name): offset \(error.offset)")
            }
        }
    }
}
