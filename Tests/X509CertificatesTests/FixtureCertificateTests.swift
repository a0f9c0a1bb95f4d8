import DER
import Testing
import TestHelpers
import X509Certificates

/// The real names of every certificate in the shared fixtures (Apple's roots, the receipts'
/// chains, the JWS x5c chains, Xcode's StoreKit certificates) keep to the Name grammar: the
/// stricter parser refuses none of them.
@Suite(.enabled(if: Fixtures.shouldRun))
struct FixtureCertificateTests {
    @Test func everyFixtureCertificateParses() throws {
        let entries = try FixtureCertificates.all()
        // 3 files, 3 + 3 + 3 + 1 + 1 receipt certificates, 3 + 3 × 3 + 3 × 1 x5c entries.
        #expect(entries.count == 3 + 11 + 15)
        for entry in entries {
            do {
                let certificate = try Certificate(derEncoded: entry.der)
                #expect(!certificate.issuerDescription.isEmpty && certificate.issuerDescription != "<malformed name>", "\(entry.origin)")
                #expect(certificate.subjectDescription != "<malformed name>", "\(entry.origin)")
            } catch {
                Issue.record("\(entry.origin): \(error)")
            }
        }
    }

    /// What the names say, for a few that exercise the attribute types: emailAddress as an
    /// IA5String and C as a PrintableString (StoreKit), UTF8String names (G3), PrintableString
    /// ones (Apple Root CA).
    @Test func namesDescribeAsTheySay() throws {
        let storeKit = try Certificate(derEncoded: Fixtures.bytes("certs/StoreKitTestCertificate.cer"))
        #expect(storeKit.subjectDescription == "CN=StoreKit,O=StoreKit,OU=StoreKit,C=US,emailAddress=StoreKit")
        let g3 = try Certificate(derEncoded: Fixtures.bytes("certs/AppleRootCA-G3.cer"))
        #expect(g3.subjectDescription == "CN=Apple Root CA - G3,OU=Apple Certification Authority,O=Apple Inc.,C=US")
        let root = try Certificate(derEncoded: Fixtures.bytes("certs/AppleIncRootCertificate.cer"))
        #expect(root.subjectDescription == "C=US,O=Apple Inc.,OU=Apple Certification Authority,CN=Apple Root CA")
        #expect(root.isSelfIssued && storeKit.isSelfIssued && g3.isSelfIssued)
    }

    /// Chains still link by raw name bytes: each receipt's and JWS's certificates name the next
    /// one's subject as issuer, byte for byte.
    @Test func chainsLinkByNameBytes() throws {
        for file in ["receipts/production.der", "receipts/sandbox-legacy.der"] {
            let chain = try FixtureCertificates.embedded(in: Fixtures.bytes(file)).map { try Certificate(derEncoded: $0) }
            #expect(chain.count == 3)
            #expect(chain[0].issuer == chain[1].subject && chain[1].issuer == chain[2].subject, "\(file)")
        }
        let jws = try FixtureCertificates.x5c(Fixtures.bytes("jws/apple-real-test-notification.jws")).map { try Certificate(derEncoded: $0) }
        #expect(jws[0].issuer == jws[1].subject && jws[1].issuer == jws[2].subject)
        #expect(jws[2].encoded.elementsEqual(try Fixtures.bytes("certs/AppleRootCA-G3.cer")))
    }
}
