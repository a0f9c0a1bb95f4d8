import Foundation
import ReceiptTestSupport
import Testing

/// What the Get Retention Message endpoint refuses, as the notification endpoints do: 400
/// malformed, 401 not authentic (or not fresh), 403 another app or environment; never a message.
@Suite struct RetentionRefusalTests {
    static let messages = ["\(Synthetic.bundleID)=\(RetentionRequests.messageID)"]

    static func expectRefused(_ reply: RetentionReply, _ status: Int, _ name: String) {
        #expect(reply.status == status, "\(name): \(reply.text)")
        #expect(reply.contentType == "application/json", "\(name)")
        let reason = reply.json["error"] as? String
        #expect(reason.map { !$0.isEmpty && !$0.contains("\n") && $0.count <= 300 } == true, "\(name): \(reply.text)")
    }

    @Test func malformedBodiesAre400() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let token = RetentionRequests.token()
        let parts = token.split(separator: ".").map(String.init)
        let bodies: [(String, Data)] = [
            ("not JSON", Data("signedPayload=abc".utf8)),
            ("empty", Data()),
            ("array", Data(#"["\#(token)"]"#.utf8)),
            ("no signedPayload", Data(#"{"signed_payload":"\#(token)"}"#.utf8)),
            ("number", Data(#"{"signedPayload":42}"#.utf8)),
            ("null", Data(#"{"signedPayload":null}"#.utf8)),
            ("not UTF-8", Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D])),
            ("deep nesting", Data((String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)).utf8)),
            ("not a JWS", SyntheticNotifications.body("abc")),
            ("two parts", SyntheticNotifications.body(parts[0] + "." + parts[1])),
            ("payload not JSON", SyntheticNotifications.body(parts[0] + "." + TestJWS.base64URL(Array("nope".utf8)) + "." + parts[2])),
        ]
        try await TestServer.with(RetentionRequests.configuration(database, messages: Self.messages)) { client in
            for (name, body) in bodies {
                Self.expectRefused(try await client.retention(body), 400, name)
            }
        }
    }

    @Test func forgedIs401() async throws {
        let database = try await TestDatabase.make(.sqlite)
        var parts = RetentionRequests.token().split(separator: ".").map(String.init)
        // The payload changed after signing (another product), same signature.
        let payload = String(decoding: try #require(Data(base64URL: parts[1])), as: UTF8.self)
        parts[1] = TestJWS.base64URL(Array(payload.replacingOccurrences(of: "monthly", with: "yearly").utf8))
        let tampered = parts.joined(separator: ".")
        // A chain of the right shape under a root the server does not trust.
        let foreign = TestJWSChain(rootName: "Not The Configured Root").token(
            payload: #"{"appAppleId":1,"environment":"Production","signedDate":\#(RetentionRequests.now)}"#)
        let hmac = SyntheticNotifications.chain.token(
            payload: #"{"environment":"Production","signedDate":\#(RetentionRequests.now)}"#, x5c: SyntheticNotifications.x5c,
            algorithm: "HS256")
        try await TestServer.with(RetentionRequests.configuration(database, messages: Self.messages)) { client in
            for (name, token) in [("tampered", tampered), ("foreign root", foreign), ("HS256", hmac)] {
                Self.expectRefused(try await client.retention(token: token), 401, name)
            }
        }
        // Without --root-g3 the synthetic chain is not Apple's.
        var configuration = RetentionRequests.configuration(database, messages: Self.messages)
        configuration.rootsG3 = []
        try await TestServer.with(configuration) { client in
            Self.expectRefused(try await client.retention(token: RetentionRequests.token()), 401, "Apple Root CA - G3")
        }
    }

    /// An app the registry does not serve, or a production request naming another Apple id than
    /// the app's (`--app BUNDLE_ID@APPLE_ID`): 403. Sandbox requests' Apple id is not compared (as
    /// Apple's `verify_and_decode_realtime_request`).
    @Test func otherAppIs403() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let apps = ["\(Synthetic.bundleID)@1234567890", "com.example.other"]
        let messages = Self.messages + ["com.example.stranger=\(RetentionRequests.messageID)"]
        try await TestServer.with(RetentionRequests.configuration(database, apps: apps, messages: messages)) { client in
            let stranger = try await client.retention(token: RetentionRequests.token(), bundleID: "com.example.stranger")
            Self.expectRefused(stranger, 403, "not served")
            #expect((stranger.json["error"] as? String)?.contains("com.example.stranger is not served here") == true)
            Self.expectRefused(try await client.retention(token: RetentionRequests.token(appAppleId: 999)), 403, "other Apple id")
            let answered1 = try await client.retention(token: RetentionRequests.token())
            #expect(answered1.status == 200)
            let sandbox = try await client.retention(token: RetentionRequests.token(environment: "Sandbox", appAppleId: 999), sandbox: true)
            #expect(sandbox.status == 200)
        }
    }

    @Test func otherEnvironmentIs403() async throws {
        let database = try await TestDatabase.make(.sqlite)
        try await TestServer.with(RetentionRequests.configuration(database, messages: Self.messages)) { client in
            Self.expectRefused(try await client.retention(token: RetentionRequests.token(environment: "Sandbox")), 403, "sandbox at production")
            Self.expectRefused(try await client.retention(token: RetentionRequests.token(), sandbox: true), 403, "production at sandbox")
            Self.expectRefused(
                try await client.retention(token: RetentionRequests.token(environment: "Xcode"), sandbox: true), 403, "Xcode at sandbox")
        }
    }

    /// Signed more than 5 minutes ago, or more than the 60 s of clock skew ahead: 401. Four
    /// minutes old and 30 s ahead are answered.
    @Test func staleOrFutureSignedDateIs401() async throws {
        let database = try await TestDatabase.make(.sqlite)
        try await TestServer.with(RetentionRequests.configuration(database, messages: Self.messages)) { client in
            let now = RetentionRequests.now
            let stale = try await client.retention(token: RetentionRequests.token(signedDate: now - 6 * 60_000))
            Self.expectRefused(stale, 401, "6 minutes old")
            #expect((stale.json["error"] as? String)?.contains("s old") == true)
            Self.expectRefused(try await client.retention(token: RetentionRequests.token(signedDate: now + 2 * 60_000)), 401, "2 minutes ahead")
            Self.expectRefused(try await client.retention(token: RetentionRequests.token(signedDate: 1_709_251_200_000)), 401, "2024")
            let answered2 = try await client.retention(token: RetentionRequests.token(signedDate: now - 4 * 60_000))
            #expect(answered2.status == 200)
            let answered3 = try await client.retention(token: RetentionRequests.token(signedDate: now + 30_000))
            #expect(answered3.status == 200)
        }
    }
}
