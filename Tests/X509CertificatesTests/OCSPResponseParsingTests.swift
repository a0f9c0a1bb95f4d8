import CryptoPrimitives
import DER
import ReceiptTestSupport
import Testing
import X509Certificates

/// `OCSPResponse` on hand-made DER: statuses without a body, the errors and their offsets, the
/// bounds; and `RevocationChecker.check(path:at:)` over a stub.
@Suite struct OCSPResponseParsingTests {
    @Test func unsuccessfulStatusesCarryNoBody() throws {
        let tryLater: [UInt8] = [0x30, 0x03, 0x0A, 0x01, 0x03]
        let response = try OCSPResponse(derEncoded: tryLater)
        #expect(response.status == .tryLater)
        #expect(response.basic == nil)
        let chain = TestChain().certificates
        let leaf = try Certificate(derEncoded: chain[0])
        let intermediate = try Certificate(derEncoded: chain[1])
        do {
            _ = try OCSPResponseVerifier().verify(tryLater, certificate: leaf, issuer: intermediate, at: 0)
            Issue.record("a tryLater response verified")
        } catch {
            #expect(error == .unsuccessfulResponse(.tryLater))
            #expect(error.isRetryable)
        }
    }

    @Test(
        arguments: [
            ("successful without responseBytes", [0x30, 0x03, 0x0A, 0x01, 0x00], OCSPResponseError(.missingResponseBytes, at: 2)),
            ("status 4", [0x30, 0x03, 0x0A, 0x01, 0x04], OCSPResponseError(.unknownResponseStatus(4), at: 2)),
            (
                "unsuccessful with responseBytes", [0x30, 0x07, 0x0A, 0x01, 0x01, 0xA0, 0x02, 0x30, 0x00],
                OCSPResponseError(.unexpectedResponseBytes, at: 5)
            ),
            (
                "INTEGER status", [0x30, 0x03, 0x02, 0x01, 0x00],
                OCSPResponseError(.encoding(.unexpectedTag(expected: .enumerated, found: .integer)), at: 2)
            ),
            ("trailing byte", [0x30, 0x03, 0x0A, 0x01, 0x03, 0x00], OCSPResponseError(.encoding(.trailingBytes), at: 5)),
            ("long-form length", [0x30, 0x81, 0x03, 0x0A, 0x01, 0x03], OCSPResponseError(.encoding(.nonMinimalLength), at: 0)),
            (
                "another response type",
                [0x30, 0x0E, 0x0A, 0x01, 0x00, 0xA0, 0x09, 0x30, 0x07, 0x06, 0x03, 0x2A, 0x03, 0x04, 0x04, 0x00],
                OCSPResponseError(.unsupportedResponseType(ASN1ObjectIdentifier("1.2.3.4")), at: 9)
            ),
        ] as [(String, [UInt8], OCSPResponseError)])
    func malformed(_ name: String, _ bytes: [UInt8], _ expected: OCSPResponseError) {
        #expect(throws: expected, "\(name)") { try OCSPResponse(derEncoded: bytes) }
    }

    @Test func sizeIsBounded() {
        let huge = [UInt8](repeating: 0, count: OCSPLimits.maxResponseSize + 1)
        #expect(throws: OCSPResponseError(.responseTooLarge(huge.count), at: 0)) { try OCSPResponse(derEncoded: huge) }
    }

    @Test func requestDER() throws {
        let certID = OCSPCertID(
            hashAlgorithm: .sha1, issuerNameHash: [UInt8](repeating: 1, count: 20), issuerKeyHash: [UInt8](repeating: 2, count: 20),
            serialNumber: [0x10, 0x01])
        let der = OCSPRequest(certIDs: [certID], nonce: [9, 9]).derEncoded
        // OCSPRequest { TBSRequest { requestList { Request { CertID } }, [2] { Extensions { nonce } } } }
        let expectedCertID: [UInt8] =
            [0x30, 0x3B, 0x30, 0x09, 0x06, 0x05, 0x2B, 0x0E, 0x03, 0x02, 0x1A, 0x05, 0x00, 0x04, 0x14]
            + [UInt8](repeating: 1, count: 20) + [0x04, 0x14] + [UInt8](repeating: 2, count: 20) + [0x02, 0x02, 0x10, 0x01]
        let nonce: [UInt8] = [
            0xA2, 0x15, 0x30, 0x13, 0x30, 0x11, 0x06, 0x09, 0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x01, 0x02, 0x04, 0x04, 0x04, 0x02, 0x09, 0x09,
        ]
        #expect(der == [0x30, 0x5A, 0x30, 0x58, 0x30, 0x3F, 0x30, 0x3D] + expectedCertID + nonce)
    }

    @Test func aCertificateWithoutAIAHasNoResponder() throws {
        #expect(try Certificate(derEncoded: TestChain().certificates[0]).ocspResponderURLs == [])
    }

    struct StubChecker: RevocationChecker {
        let revokedSubject: CertificateName?
        func status(of certificate: Certificate, issuedBy issuer: Certificate, at time: Int64) throws(RevocationCheckError) -> RevocationStatus {
            if certificate.subjectName == revokedSubject { return .revoked(at: 5, reason: .superseded) }
            return .good(thisUpdate: time, nextUpdate: nil)
        }
    }

    @Test func checkerWalksThePathButTheAnchor() throws {
        let path = try TestChain().certificates.map { try Certificate(derEncoded: $0) }
        #expect(
            try StubChecker(revokedSubject: nil).check(path: path, at: 7) == [
                .good(thisUpdate: 7, nextUpdate: nil), .good(thisUpdate: 7, nextUpdate: nil),
            ])
        let intermediate = path[1].subjectName
        #expect(throws: RevocationCheckError.revoked(subject: intermediate, at: 5, reason: .superseded)) {
            try StubChecker(revokedSubject: intermediate).check(path: path, at: 7)
        }
        #expect(RevocationCheckError.unavailable(reason: "timeout").isRetryable)
        #expect(!RevocationCheckError.responseRefused(.nonceMismatch).isRetryable)
    }
}
