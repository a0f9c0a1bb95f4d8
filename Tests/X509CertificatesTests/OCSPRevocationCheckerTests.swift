import Foundation
import TestHelpers
import Testing
import X509Certificates

/// `OCSPRevocationChecker` end to end: the URL from authorityInfoAccess, our request, OpenSSL's
/// responder as the transport's far end, our verifier.
@Suite(.enabled(if: OCSPTestPKI.shouldRun, "openssl not found: the OCSP interoperability tests need it (they fail under CI=true)"))
struct OCSPRevocationCheckerTests {
    var now: Int64 { Int64(Date().timeIntervalSince1970) }

    /// A checker whose transport answers with OpenSSL's responder, and records the URLs asked.
    static func checker(_ pki: OCSPTestPKI, asked: Asked) -> OCSPRevocationChecker<Transport> {
        OCSPRevocationChecker(
            transport: Transport { (url: String, request: [UInt8]) throws(RevocationCheckError) -> [UInt8] in
                asked.append(url)
                do {
                    return try pki.respond(to: request, signer: pki.responder)
                } catch {
                    throw .unavailable(reason: "\(error)")
                }
            })
    }

    /// A transport that runs a closure.
    struct Transport: OCSPTransport {
        let body: @Sendable (String, [UInt8]) throws(RevocationCheckError) -> [UInt8]
        func fetch(_ request: [UInt8], from url: String) throws(RevocationCheckError) -> [UInt8] { try body(url, request) }
    }

    final class Asked: @unchecked Sendable {
        private let lock = NSLock()
        private var urls: [String] = []
        func append(_ url: String) { lock.withLock { urls.append(url) } }
        var all: [String] { lock.withLock { urls } }
    }

    @Test func goodRevokedAndThePath() throws {
        let pki = try OCSPTestPKI.shared(.ecP256)
        let asked = Asked()
        let checker = Self.checker(pki, asked: asked)
        #expect(try checker.status(of: pki.good.certificate, issuedBy: pki.ca.certificate, at: now).isGood)
        #expect(asked.all == [OCSPTestPKI.aiaURL])
        #expect(
            try checker.status(of: pki.revoked.certificate, issuedBy: pki.ca.certificate, at: now)
                == .revoked(at: 1_735_689_600, reason: .keyCompromise))
        #expect(try checker.check(path: [pki.good.certificate, pki.ca.certificate], at: now).count == 1)
        #expect(throws: RevocationCheckError.revoked(subject: pki.revoked.certificate.subjectName, at: 1_735_689_600, reason: .keyCompromise)) {
            try checker.check(path: [pki.revoked.certificate, pki.ca.certificate], at: now)
        }
    }

    @Test func failures() throws {
        let pki = try OCSPTestPKI.shared(.ecP256)
        // No responder named: the CA's own certificate has no authorityInfoAccess.
        let asked = Asked()
        #expect(throws: RevocationCheckError.noResponder(subject: pki.ca.certificate.subjectName)) {
            try Self.checker(pki, asked: asked).status(of: pki.ca.certificate, issuedBy: pki.ca.certificate, at: now)
        }
        #expect(asked.all.isEmpty)
        // The transport fails: retryable.
        let down = OCSPRevocationChecker(
            transport: Transport { (_: String, _: [UInt8]) throws(RevocationCheckError) -> [UInt8] in
                throw .unavailable(reason: "connection refused")
            })
        do {
            _ = try down.status(of: pki.good.certificate, issuedBy: pki.ca.certificate, at: now)
            Issue.record("an unreachable responder gave a status")
        } catch {
            #expect(error == .unavailable(reason: "connection refused"))
            #expect(error.isRetryable)
        }
        // The responder says tryLater: refused, and retryable.
        let busy = OCSPRevocationChecker(
            transport: Transport { (_: String, _: [UInt8]) throws(RevocationCheckError) -> [UInt8] in [0x30, 0x03, 0x0A, 0x01, 0x03] })
        do {
            _ = try busy.status(of: pki.good.certificate, issuedBy: pki.ca.certificate, at: now)
            Issue.record("a tryLater answer gave a status")
        } catch {
            #expect(error == .responseRefused(.unsuccessfulResponse(.tryLater)))
            #expect(error.isRetryable)
        }
        // An answer about another certificate: refused, not retryable.
        let revokedRequest = try OCSPRequest(certificate: pki.revoked.certificate, issuer: pki.ca.certificate)
        let other = try pki.respond(to: revokedRequest.derEncoded, signer: pki.responder)
        let confused = OCSPRevocationChecker(transport: Transport { (_: String, _: [UInt8]) throws(RevocationCheckError) -> [UInt8] in other })
        do {
            _ = try confused.status(of: pki.good.certificate, issuedBy: pki.ca.certificate, at: now)
            Issue.record("an answer about another certificate gave a status")
        } catch {
            #expect(error == .responseRefused(.certificateNotInResponse))
            #expect(!error.isRetryable)
        }
    }
}
