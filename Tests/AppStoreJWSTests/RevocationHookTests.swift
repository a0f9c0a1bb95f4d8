@testable import AppStoreJWS
import Foundation
import ReceiptTestSupport
import Testing
import X509Certificates

/// `JWSVerifier.revocation`: asked only about paths that verified, leaf and intermediate each
/// against its issuer; its verdicts become `JWSError.revocation` in the right category.
@Suite struct RevocationHookTests {
    /// Answers from a fixed table by subject, and records what it was asked, in order.
    final class TableChecker: RevocationChecker, @unchecked Sendable {
        let lock = NSLock()
        var asked: [(subject: String, issuer: String)] = []
        let answer: @Sendable (Certificate) throws(RevocationCheckError) -> RevocationStatus

        init(_ answer: @escaping @Sendable (Certificate) throws(RevocationCheckError) -> RevocationStatus) { self.answer = answer }

        func status(of certificate: Certificate, issuedBy issuer: Certificate, at time: Int64) throws(RevocationCheckError) -> RevocationStatus {
            lock.withLock { asked.append((certificate.subjectDescription, issuer.subjectDescription)) }
            return try answer(certificate)
        }
    }

    static let good = RevocationStatus.good(thisUpdate: 0, nextUpdate: nil)

    static func verifier(_ checker: TableChecker) -> JWSVerifier {
        JWSVerifier(policy: SyntheticTokenTests.policy, revocation: checker)
    }

    @Test func everyCertificateButTheAnchorIsAskedAboutAgainstItsIssuer() throws {
        let checker = TableChecker { _ throws(RevocationCheckError) in Self.good }
        let verified = try Self.verifier(checker).verify(SyntheticTokenTests.token())
        let chain = verified.chain.map(\.subjectDescription)
        #expect(chain.count == 3)
        #expect(checker.asked.map(\.subject) == Array(chain.prefix(2)))
        #expect(checker.asked.map(\.issuer) == Array(chain.suffix(2)))
    }

    @Test func aRevokedLeafIsNotAuthentic() {
        let checker = TableChecker { certificate throws(RevocationCheckError) in
            certificate.extensions.basicConstraints?.isCA == true ? Self.good : .revoked(at: 1_700_000_000, reason: .keyCompromise)
        }
        #expect {
            _ = try Self.verifier(checker).verify(SyntheticTokenTests.token())
        } throws: { error in
            guard let error = error as? JWSError, case .revocation(.revoked) = error else { return false }
            return error.category == .notAuthentic
        }
    }

    @Test func anUnknownCertificateIsNotAuthentic() {
        let checker = TableChecker { _ throws(RevocationCheckError) in .unknown }
        #expect {
            _ = try Self.verifier(checker).verify(SyntheticTokenTests.token())
        } throws: { error in
            guard let error = error as? JWSError, case .revocation(.unknownCertificate) = error else { return false }
            return error.category == .notAuthentic
        }
    }

    @Test func noAnswerIsRetryableAndNotARefusal() {
        let checker = TableChecker { _ throws(RevocationCheckError) in throw .unavailable(reason: "responder unreachable") }
        #expect {
            _ = try Self.verifier(checker).verify(SyntheticTokenTests.token())
        } throws: { error in
            (error as? JWSError)?.category == .revocationUnavailable
        }
    }

    @Test func aTokenThatDoesNotVerifyNeverReachesTheChecker() {
        let checker = TableChecker { _ throws(RevocationCheckError) in Self.good }
        let forged = SyntheticTokenTests.replacingPart(2, of: SyntheticTokenTests.token(), with: String(repeating: "A", count: 86))
        #expect(throws: JWSError.self) { _ = try Self.verifier(checker).verify(forged) }
        #expect(checker.asked.isEmpty)
    }

    @Test func nestedTokensAreCheckedToo() throws {
        // The outer token's path, then the nested transaction's: two certificates each.
        let checker = TableChecker { _ throws(RevocationCheckError) in Self.good }
        let transaction = SyntheticTokenTests.token()
        let notification = SyntheticTokenTests.token(
            #"{"notificationType":"DID_RENEW","notificationUUID":"u","signedDate":1709251200000,"data":{"bundleId":"com.example.app","environment":"Production","signedTransactionInfo":"\#(transaction)"}}"#
        )
        _ = try Self.verifier(checker).verifyNotification(notification)
        #expect(checker.asked.count == 4)
    }
}
