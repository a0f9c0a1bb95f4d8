import CryptoPrimitives
import Foundation
import TestHelpers
import Testing
import X509Certificates

/// Requests built by `OCSPRequest`, answered by OpenSSL's own responder, checked by
/// `OCSPResponseVerifier` (issue 40): with an EC P-256 CA (StoreKit 2 chains are EC) and an
/// RSA-2048 one; a delegated responder and the CA itself as signer; good, revoked and unknown;
/// and the refusals RFC 6960 §3.2 and §4.2.2.2 ask for.
@Suite(.enabled(if: OCSPTestPKI.shouldRun, "openssl not found: the OCSP interoperability tests need it (they fail under CI=true)"))
struct OCSPOpenSSLTests {
    static let keyTypes = OCSPTestPKI.KeyType.allCases
    let verifier = OCSPResponseVerifier()
    var now: Int64 { Int64(Date().timeIntervalSince1970) }

    @Test(arguments: keyTypes)
    func authorityInformationAccessNamesTheResponder(_ type: OCSPTestPKI.KeyType) throws {
        let pki = try OCSPTestPKI.shared(type)
        #expect(try pki.good.certificate.ocspResponderURLs == [OCSPTestPKI.aiaURL])
        #expect(try pki.ca.certificate.ocspResponderURLs == [])
        #expect(try pki.responder.certificate.ocspResponderURLs == [])
    }

    @Test(arguments: keyTypes)
    func ourRequestIsOpenSSLsRequest(_ type: OCSPTestPKI.KeyType) throws {
        let pki = try OCSPTestPKI.shared(type)
        let request = try OCSPRequest(certificate: pki.good.certificate, issuer: pki.ca.certificate)
        // Byte for byte what `openssl ocsp -issuer -cert -no_nonce -reqout` writes.
        #expect(request.derEncoded == (try pki.opensslRequest(for: pki.good)))
        let text = try pki.describe(request: request.derEncoded)
        #expect(text.contains("Hash Algorithm: sha1"))
        #expect(text.contains("Serial Number: 1001"))
        let nameHash = SHA1.hash(Array(pki.ca.certificate.subject)).description.uppercased()
        #expect(text.contains("Issuer Name Hash: \(nameHash)"))

        let withNonce = OCSPRequest(certIDs: request.certIDs, nonce: Array(0 ..< 32))
        let nonceText = try pki.describe(request: withNonce.derEncoded)
        #expect(nonceText.contains("OCSP Nonce"))
        #expect(nonceText.contains("0420000102030405"))
    }

    @Test(arguments: keyTypes)
    func goodFromTheDelegatedResponder(_ type: OCSPTestPKI.KeyType) throws {
        let pki = try OCSPTestPKI.shared(type)
        let request = try OCSPRequest(certificate: pki.good.certificate, issuer: pki.ca.certificate)
        let response = try pki.respond(to: request.derEncoded, signer: pki.responder)
        var budget = VerificationBudget()
        let status = try verifier.verify(response, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: now, budget: &budget)
        guard case .good(let thisUpdate, let nextUpdate) = status else {
            Issue.record("expected good, got \(status)")
            return
        }
        #expect(abs(thisUpdate - now) < 120)
        #expect(nextUpdate == thisUpdate + 86400)
        #expect(budget.spent == 2, "the responder certificate's link and the response")

        let parsed = try OCSPResponse(derEncoded: response)
        #expect(parsed.status == .successful)
        #expect(parsed.basic?.certificates.map(\.subjectDescription) == [pki.responder.certificate.subjectDescription])
        #expect(parsed.basic?.responderID == .byName(Array(pki.responder.certificate.subject)))
    }

    @Test(arguments: keyTypes)
    func goodFromTheIssuerItself(_ type: OCSPTestPKI.KeyType) throws {
        let pki = try OCSPTestPKI.shared(type)
        let request = try OCSPRequest(certificate: pki.good.certificate, issuer: pki.ca.certificate)
        for extra in [[], ["-resp_key_id"], ["-resp_no_certs"]] {
            let response = try pki.respond(to: request.derEncoded, extra: extra)
            var budget = VerificationBudget()
            let status = try verifier.verify(response, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: now, budget: &budget)
            #expect(status.isGood, "\(extra)")
            #expect(budget.spent == 1)
        }
        // A delegated responder named by key hash.
        let byKey = try pki.respond(to: request.derEncoded, signer: pki.responder, extra: ["-resp_key_id"])
        guard case .byKey = try OCSPResponse(derEncoded: byKey).basic?.responderID else {
            Issue.record("expected a byKey responder ID")
            return
        }
        #expect(try verifier.verify(byKey, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: now).isGood)
    }

    @Test(arguments: keyTypes)
    func revokedWithTimeAndReason(_ type: OCSPTestPKI.KeyType) throws {
        let pki = try OCSPTestPKI.shared(type)
        let request = try OCSPRequest(certificate: pki.revoked.certificate, issuer: pki.ca.certificate)
        let response = try pki.respond(to: request.derEncoded, signer: pki.responder)
        let status = try verifier.verify(response, certificate: pki.revoked.certificate, issuer: pki.ca.certificate, at: now)
        #expect(status == .revoked(at: 1_735_689_600, reason: .keyCompromise))
    }

    @Test(arguments: keyTypes)
    func unknown(_ type: OCSPTestPKI.KeyType) throws {
        let pki = try OCSPTestPKI.shared(type)
        let request = try OCSPRequest(certificate: pki.unknown.certificate, issuer: pki.ca.certificate)
        let response = try pki.respond(to: request.derEncoded, signer: pki.responder)
        #expect(try verifier.verify(response, certificate: pki.unknown.certificate, issuer: pki.ca.certificate, at: now) == .unknown)
    }

    @Test(arguments: keyTypes)
    func sha256CertIDAndNonce(_ type: OCSPTestPKI.KeyType) throws {
        let pki = try OCSPTestPKI.shared(type)
        let nonce = Array(UInt8(100) ..< 132)
        let request = try OCSPRequest(certificate: pki.good.certificate, issuer: pki.ca.certificate, hashAlgorithm: .sha256, nonce: nonce)
        let response = try pki.respond(to: request.derEncoded, signer: pki.responder)
        let parsed = try OCSPResponse(derEncoded: response)
        #expect(parsed.basic?.responses.first?.certID.hashAlgorithm == .sha256)
        #expect(parsed.basic?.nonce == nonce)
        #expect(try verifier.verify(response, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: now, nonce: nonce).isGood)
        #expect(throws: OCSPError.nonceMismatch) {
            try verifier.verify(response, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: now, nonce: Array(nonce.reversed()))
        }
    }

    @Test(arguments: keyTypes)
    func tamperedResponseIsRefused(_ type: OCSPTestPKI.KeyType) throws {
        let pki = try OCSPTestPKI.shared(type)
        let request = try OCSPRequest(certificate: pki.good.certificate, issuer: pki.ca.certificate)
        let response = try pki.respond(to: request.derEncoded, signer: pki.responder)
        let tbs = try #require(OCSPResponse(derEncoded: response).basic?.tbsResponseDataRange)
        // producedAt's year, one more: still a well-formed response, no longer the signed one.
        let producedAt = try #require((tbs.lowerBound ..< tbs.upperBound - 1).first { response[$0] == 0x18 && response[$0 + 1] == 15 })
        var tampered = response
        tampered[producedAt + 5] += 1
        #expect(throws: OCSPError.signatureInvalid(subject: pki.responder.certificate.subjectName)) {
            try verifier.verify(tampered, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: now)
        }
        // Any flipped byte: never the genuine answer.
        for index in stride(from: 0, to: response.count, by: 11) {
            var flipped = response
            flipped[index] ^= 0x01
            #expect(throws: OCSPError.self, "byte \(index)") {
                try verifier.verify(flipped, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: now)
            }
        }
    }

    @Test(arguments: keyTypes)
    func unauthorisedResponders(_ type: OCSPTestPKI.KeyType) throws {
        let pki = try OCSPTestPKI.shared(type)
        let request = try OCSPRequest(certificate: pki.good.certificate, issuer: pki.ca.certificate)
        let cases: [(OCSPTestPKI.Entity, OCSPError.ResponderRefusal)] = [
            (pki.responderWithoutEKU, .missingOCSPSigning(subject: pki.responderWithoutEKU.certificate.subjectName)),
            (pki.responderOfOtherCA, .notIssuedByIssuer(subject: pki.responderOfOtherCA.certificate.subjectName)),
            (pki.responderOfImpostor, .issuerSignatureInvalid(subject: pki.responderOfImpostor.certificate.subjectName)),
        ]
        for (signer, refusal) in cases {
            let response = try pki.respond(to: request.derEncoded, signer: signer)
            #expect(throws: OCSPError.responderNotAuthorized(refusal)) {
                try verifier.verify(response, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: now)
            }
        }
        // The responder's certificate left out: nothing names the signer.
        let bare = try pki.respond(to: request.derEncoded, signer: pki.responder, extra: ["-resp_no_certs"])
        #expect(throws: OCSPError.responderNotAuthorized(.responderNotFound)) {
            try verifier.verify(bare, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: now)
        }
        // The responder certificate expired (a year and a day later).
        let response = try pki.respond(to: request.derEncoded, signer: pki.responder, days: 400)
        let certificate = pki.responder.certificate
        let later = now + 366 * 86400
        let expired = OCSPError.ResponderRefusal.notValid(
            subject: certificate.subjectName, notBefore: certificate.notBefore, notAfter: certificate.notAfter, at: later)
        #expect(throws: OCSPError.responderNotAuthorized(expired)) {
            try verifier.verify(response, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: later)
        }
    }

    @Test(arguments: keyTypes)
    func responseForAnotherCertificateOrStale(_ type: OCSPTestPKI.KeyType) throws {
        let pki = try OCSPTestPKI.shared(type)
        let revokedRequest = try OCSPRequest(certificate: pki.revoked.certificate, issuer: pki.ca.certificate)
        let aboutRevoked = try pki.respond(to: revokedRequest.derEncoded, signer: pki.responder)
        #expect(throws: OCSPError.certificateNotInResponse) {
            try verifier.verify(aboutRevoked, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: now)
        }
        #expect(throws: OCSPError.issuerMismatch(subject: pki.good.certificate.subjectName)) {
            try verifier.verify(aboutRevoked, certificate: pki.good.certificate, issuer: pki.responder.certificate, at: now)
        }

        let request = try OCSPRequest(certificate: pki.good.certificate, issuer: pki.ca.certificate)
        let response = try pki.respond(to: request.derEncoded, signer: pki.responder)
        guard
            case .good(let thisUpdate, let next?) = try verifier.verify(
                response, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: now)
        else {
            Issue.record("expected good with a nextUpdate")
            return
        }
        // Within the leeway past nextUpdate: still good; beyond it: stale.
        #expect(try verifier.verify(response, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: next + 299).isGood)
        let late = next + 2 * 86400
        #expect(throws: OCSPError.expired(nextUpdate: next, at: late)) {
            try verifier.verify(response, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: late)
        }
        // thisUpdate ahead of the clock beyond the leeway (no leeway here).
        let strict = OCSPResponseVerifier(leeway: 0)
        #expect(throws: OCSPError.notYetValid(thisUpdate: thisUpdate, at: thisUpdate - 1)) {
            try strict.verify(response, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: thisUpdate - 1)
        }
    }
}

extension OCSPOpenSSLTests {
    /// OpenSSL's responder signing with other digests (`-rmd`): SHA-384, and SHA-1 as old
    /// responders do; the signature algorithm's hash is the one used.
    @Test(arguments: keyTypes)
    func otherSignatureDigests(_ type: OCSPTestPKI.KeyType) throws {
        let pki = try OCSPTestPKI.shared(type)
        let request = try OCSPRequest(certificate: pki.good.certificate, issuer: pki.ca.certificate)
        let digests: [(String, HashAlgorithm)] = type == .ecP256 ? [("sha384", .sha384)] : [("sha1", .sha1), ("sha384", .sha384)]
        for (name, hash) in digests {
            let response = try pki.respond(to: request.derEncoded, signer: pki.responder, extra: ["-rmd", name])
            #expect(try OCSPResponse(derEncoded: response).basic?.signatureAlgorithm.hash == hash)
            #expect(try verifier.verify(response, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: now).isGood, "\(name)")
        }
    }

    /// Each check spends from the caller's budget: four delegated answers use up its eight operations.
    @Test func budgetIsSpent() throws {
        let pki = try OCSPTestPKI.shared(.ecP256)
        let request = try OCSPRequest(certificate: pki.good.certificate, issuer: pki.ca.certificate)
        let response = try pki.respond(to: request.derEncoded, signer: pki.responder)
        var budget = VerificationBudget()
        for _ in 0 ..< VerificationBudget.maxPublicKeyOperations / 2 {
            _ = try verifier.verify(response, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: now, budget: &budget)
        }
        #expect(throws: OCSPError.budgetExceeded) {
            try verifier.verify(response, certificate: pki.good.certificate, issuer: pki.ca.certificate, at: now, budget: &budget)
        }
    }
}

/// The OCSP responders Apple's real StoreKit 2 chain names (fixtures/jws): what the server will ask.
@Suite(.enabled(if: Fixtures.shouldRun, "the shared fixtures are missing (../shared/fixtures)"))
struct AppleOCSPResponderTests {
    @Test func realChainNamesApplesResponders() throws {
        let chain = try FixtureCertificates.x5c(Fixtures.bytes("jws/apple-real-test-notification.jws")).map { try Certificate(derEncoded: $0) }
        try #require(chain.count == 3)
        #expect(try chain[0].ocspResponderURLs == ["http://ocsp.apple.com/ocsp03-wwdrg602"])
        #expect(try chain[1].ocspResponderURLs == ["http://ocsp.apple.com/ocsp03-applerootcag3"])
        #expect(try chain[2].ocspResponderURLs == [])
        // Requests for the leaf and the intermediate, as the server will post them.
        for index in 0 ..< 2 {
            let request = try OCSPRequest(certificate: chain[index], issuer: chain[index + 1])
            #expect(request.certIDs[0].serialNumber == Array(chain[index].serialNumber))
            #expect(request.derEncoded.count < 100)
        }
    }
}

extension RevocationStatus {
    var isGood: Bool {
        if case .good = self { return true }
        return false
    }
}
