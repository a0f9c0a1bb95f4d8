import Foundation
import HummingbirdTesting
import ReceiptServer
@testable import receipt_server
import Testing

/// `--revocation ocsp` end to end (issue 40): notifications signed by a chain whose leaf and
/// intermediate name OpenSSL's own OCSP responder on loopback (`OCSPResponderFront`). A revoked
/// leaf is refused (401), a good one stored; a responder that does not answer gives 503 unless a
/// fresh answer is cached; answers are kept no longer than `--ocsp-cache-ttl`; and without the
/// flag no OCSP request leaves the server.
@Suite(.serialized) struct OCSPRevocationTests {
    static let front = Result { try OCSPResponderFront() }

    static func notification(_ front: OCSPResponderFront, revoked: Bool = false) -> Data {
        SyntheticNotifications.body(
            front.token(
                [
                    "notificationType": "TEST", "notificationUUID": UUID().uuidString.lowercased(), "version": "2.0",
                    "signedDate": Int64(Date().timeIntervalSince1970 * 1000),
                    "data": ["bundleId": Synthetic.bundleID, "environment": "Production"],
                ], revoked: revoked))
    }

    static func configuration(_ front: OCSPResponderFront, revocation: String = "ocsp", ttl: Int = 3600) async throws -> ServerConfiguration {
        var configuration = TestServer.configuration(try await TestDatabase.make(.sqlite))
        configuration.rootsG3 = [front.rootDERPath]
        configuration.revocation = revocation
        configuration.ocspCacheTTL = ttl
        return configuration
    }

    @Test func aGoodLeafIsStoredAndARevokedOneRefused() async throws {
        let front = try Self.front.get()
        let asked = front.requestCount
        try await TestServer.with(try await Self.configuration(front)) { client in
            let good = try await client.notify(Self.notification(front))
            #expect(good.status == 200, "\(good.json)")
            let revoked = try await client.notify(Self.notification(front, revoked: true))
            #expect(revoked.status == 401, "\(revoked.json)")
            #expect((revoked.json["error"] as? String)?.contains("revoked (CN=Revoked Signer)") == true, "\(revoked.json)")
        }
        // The good leaf, the intermediate (once: cached), the revoked leaf.
        #expect(front.requestCount - asked == 3)
    }

    @Test func aCachedAnswerServesWhileTheResponderIsDownAndNothingElseDoes() async throws {
        let front = try Self.front.get()
        defer { front.down = false }
        try await TestServer.with(try await Self.configuration(front)) { client in
            #expect(try await client.notify(Self.notification(front)).status == 200)
            front.down = true
            let cached = try await client.notify(Self.notification(front))
            #expect(cached.status == 200, "\(cached.json)")
        }
        // A server with nothing cached: Apple is asked to retry.
        try await TestServer.with(try await Self.configuration(front)) { client in
            let unavailable = try await client.notify(Self.notification(front))
            #expect(unavailable.status == 503, "\(unavailable.json)")
            #expect((unavailable.json["error"] as? String)?.contains("OCSP") == true, "\(unavailable.json)")
        }
    }

    @Test func answersAreKeptNoLongerThanTheTTL() async throws {
        let front = try Self.front.get()
        defer { front.down = false }
        // 5 s: the first request's two fetches (leaf, then intermediate) must both land within the
        // TTL, which a loaded machine's openssl runs can stretch past one second.
        try await TestServer.with(try await Self.configuration(front, ttl: 5)) { client in
            #expect(try await client.notify(Self.notification(front)).status == 200)
            try await Task.sleep(for: .milliseconds(5500))
            front.down = true
            #expect(try await client.notify(Self.notification(front)).status == 503)
        }
    }

    @Test func withoutTheFlagNoRequestLeavesTheServer() async throws {
        let front = try Self.front.get()
        let asked = front.requestCount
        try await TestServer.with(try await Self.configuration(front, revocation: "none")) { client in
            let good = try await client.notify(Self.notification(front))
            let revoked = try await client.notify(Self.notification(front, revoked: true))
            #expect(good.status == 200 && revoked.status == 200, "\(good.json) \(revoked.json)")
        }
        #expect(front.requestCount == asked)
    }

    @Test func aResponderThatIsGoneGives503() async throws {
        let front = try OCSPResponderFront()
        front.stop()
        try await TestServer.with(try await Self.configuration(front)) { client in
            let unavailable = try await client.notify(Self.notification(front))
            #expect(unavailable.status == 503, "\(unavailable.json)")
            // Asked again at once: the failure is remembered, nothing is fetched.
            #expect(try await client.notify(Self.notification(front)).status == 503)
        }
    }
}
