import CryptoPrimitives
import DER
import ReceiptTestSupport
import Testing
import TestHelpers
import X509Certificates

/// The typed context errors carry instead of text: `CertificateName` (a Name's DER) and
/// `EncodedCertificate` (a certificate's DER). They hold bytes, compare by bytes, and give the
/// text the errors always gave only when described.
@Suite struct CertificateNameTests {
    /// A Name of one RDN per (type, value), each value in `kind`.
    static func name(_ attributes: [(ASN1ObjectIdentifier, String)], as kind: ASN1StringKind) -> [UInt8] {
        var der = DERWriter()
        der.appendSequence { rdns in
            for (type, value) in attributes {
                rdns.appendSetOf { set in
                    set.appendSequence { pair in
                        pair.appendObjectIdentifier(type)
                        pair.appendString(value, as: kind)
                    }
                }
            }
        }
        return der.bytes
    }

    static let attributes = [(TestCertificate.Names.country, "US"), (TestCertificate.Names.commonName, "Same Text")]

    @Test(.enabled(if: Fixtures.shouldRun))
    func everyFixtureNameDescribesAsDistinguishedNameDoes() throws {
        for entry in try FixtureCertificates.all() {
            let certificate = try Certificate(derEncoded: entry.der)
            #expect(certificate.subjectName.description == DistinguishedName.describe(certificate.subject), "\(entry.origin)")
            #expect(certificate.issuerName.description == DistinguishedName.describe(certificate.issuer), "\(entry.origin)")
            #expect(certificate.subjectName.der == certificate.subject && certificate.issuerName.der == certificate.issuer)
            #expect(certificate.subjectDescription == certificate.subjectName.description)
        }
    }

    @Test func descriptionIsDistinguishedNameText() {
        let der = Self.name(Self.attributes, as: .printable)
        #expect(CertificateName(der: der[...]).description == "C=US,CN=Same Text")
        #expect(CertificateName(der: der[...]).description == DistinguishedName.describe(der))
        #expect(CertificateName(der: [0x30, 0x03, 0x31]).description == "<malformed name>")
        #expect(CertificateName(der: [0x30, 0x03, 0x31]).description == DistinguishedName.describe([0x30, 0x03, 0x31]))
    }

    /// Equal bytes are equal names wherever they sit; names that read alike but are encoded
    /// differently (PrintableString, UTF8String) are not, as they are not to the chain builder.
    @Test func equalityIsByBytes() {
        let printable = Self.name(Self.attributes, as: .printable)
        let utf8 = Self.name(Self.attributes, as: .utf8)
        let padded = [0xAA, 0xBB] + printable + [0xCC]
        let inPadded = CertificateName(der: padded[2 ..< 2 + printable.count])
        #expect(inPadded == CertificateName(der: printable[...]))
        #expect(inPadded.hashValue == CertificateName(der: printable[...]).hashValue)
        #expect(CertificateName(der: utf8[...]).description == CertificateName(der: printable[...]).description)
        #expect(CertificateName(der: utf8[...]) != CertificateName(der: printable[...]))
        #expect(Set([inPadded, CertificateName(der: printable[...]), CertificateName(der: utf8[...])]).count == 2)
    }

    @Test func encodedCertificateHashesOnlyWhenAsked() throws {
        let chain = TestChain()
        let root = try Certificate(derEncoded: chain.rootCertificate)
        let encoded = EncodedCertificate(root)
        #expect(Array(encoded.der) == chain.rootCertificate)
        #expect(encoded.fingerprint == root.fingerprint && encoded.fingerprint == SHA256.hash(chain.rootCertificate))
        #expect(encoded.description == root.fingerprint.description && encoded.description.count == 64)
        #expect(encoded == EncodedCertificate(der: chain.rootCertificate[...]))
        #expect(encoded != EncodedCertificate(der: chain.certificates[1][...]))
    }

    /// The errors read as they did when they held the text.
    @Test func errorsDescribeTheirNames() throws {
        let chain = TestChain()
        let leaf = try Certificate(derEncoded: chain.certificates[0])
        let text = "C=US,O=Receipt Toolkit Tests,CN=Receipt Toolkit Test Receipt Signing"
        #expect(VerificationError.signatureInvalid(subject: leaf.subjectName).description == "signature invalid (\(text))")
        #expect(
            VerificationError.expired(subject: leaf.subjectName, notAfter: 0, at: 1).description
                == "certificate expired (\(text)): notAfter 1970-01-01T00:00:00Z is before 1970-01-01T00:00:01Z")
        #expect(
            VerificationError.issuerNotPresent(subject: leaf.subjectName).description == "issuer of \(text) is neither in the message nor an anchor")
        let root = try Certificate(derEncoded: chain.rootCertificate)
        #expect(
            VerificationError.notTrusted(certificate: EncodedCertificate(root)).description
                == "not trusted: chain ends at certificate SHA-256 \(root.fingerprint)")
        #expect(OCSPError.signatureInvalid(subject: leaf.subjectName).description == "OCSP response signature invalid (responder \(text))")
        #expect(RevocationCheckError.noResponder(subject: leaf.subjectName).description == "no OCSP responder named in \(text)")
    }
}
