import Foundation
import HummingbirdTesting
import ReceiptStore
import ReceiptTestSupport
import Testing

/// `POST /notifications/v2` and `/sandbox/notifications/v2`: 200 once stored (once per
/// notificationUUID), 400 malformed, 401 not authentic, 403 another app or environment.
@Suite struct NotificationEndpointTests {
    static let signed: Int64 = 1_709_251_200_000   // 2024-03-01T00:00:00Z
    static let transaction = SyntheticNotifications.Transaction(
        transactionId: "4100000001", originalTransactionId: "4100000001", purchaseDate: signed - 60_000,
        expiresDate: signed + 30 * 86_400_000, signedDate: signed)
    static let renewal = SyntheticNotifications.Renewal(originalTransactionId: "4100000001", signedDate: signed)

    static func subscribed(
        uuid: String = UUID().uuidString.lowercased(), environment: String = "Production",
        bundleId: String = Synthetic.bundleID, appAppleId: Int64? = nil
    ) -> String {
        var transaction = Self.transaction, renewal = Self.renewal
        transaction.environment = environment
        transaction.bundleId = bundleId
        renewal.environment = environment
        return SyntheticNotifications.token(
            "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: uuid, signedDate: signed,
            transaction: transaction, renewal: renewal, bundleId: bundleId,
            environment: environment, appAppleId: appAppleId)
    }

    /// Apple's own TEST notification (Sandbox, com.Abilities, signed 2022-09-02 by a 2021 leaf
    /// under Apple Root CA - G3): stored at the sandbox endpoint, refused at the production one.
    @Test(.enabled(if: Fixtures.shouldRun), arguments: TestDatabase.backends)
    func realAppleTestNotification(_ backend: TestDatabase.Backend) async throws {
        let token = String(decoding: try Fixtures.bytes("jws/apple-real-test-notification.jws"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let database = try await TestDatabase.make(backend)
        try await TestServer.with(TestServer.configuration(database)) { client in   // no --root-g3: Apple Root CA - G3
            let production = try await client.notify(SyntheticNotifications.body(token))
            #expect(production.status == 403)
            #expect((production.json["error"] as? String)?.contains("environment Sandbox, expected Production") == true)
            #expect(try await client.notify(token: token, sandbox: true) == 200)
            #expect(try await client.notify(token: token, sandbox: true) == 200)
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 0, transactions: 0, notifications: 1))
        let row = try #require(try await Inspect.notifications(database).first)
        #expect(row.uuid == "5e09dcfc-205e-4ea1-9883-96676f394992" && row.type == "TEST" && row.subtype == nil)
        #expect(row.bundleID == "com.Abilities" && row.environment == "Sandbox" && row.signedMilliseconds == 1_662_122_492_884)
        #expect(row.signedPayload == token)
        // A server serving other apps refuses it.
        let other = try await TestDatabase.make(.sqlite)
        try await TestServer.with(TestServer.configuration(other, apps: ["com.example.other"])) { client in
            let status = try await client.notify(token: token, sandbox: true)
            #expect(status == 403)
        }
    }

    /// Bodies and tokens that are not what the endpoint takes: 400, nothing stored.
    @Test func malformedBodiesAre400() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let token = Self.subscribed()
        let parts = token.split(separator: ".").map(String.init)
        let bodies: [(String, Data)] = [
            ("not JSON", Data("signedPayload=abc".utf8)),
            ("empty", Data()),
            ("array", Data(#"["\#(token)"]"#.utf8)),
            ("no signedPayload", Data(#"{"signed_payload":"\#(token)"}"#.utf8)),
            ("number", Data(#"{"signedPayload":42}"#.utf8)),
            ("null", Data(#"{"signedPayload":null}"#.utf8)),
            ("two signedPayload members", Data(#"{"signedPayload":"\#(token)","signedPayload":"\#(token)"}"#.utf8)),
            ("not UTF-8", Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D])),
            ("deep nesting", Data((String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)).utf8)),
            ("not a JWS", SyntheticNotifications.body("abc")),
            ("two parts", SyntheticNotifications.body(parts[0] + "." + parts[1])),
            ("padded base64url", SyntheticNotifications.body(parts[0] + "=." + parts[1] + "." + parts[2])),
            ("payload not JSON", SyntheticNotifications.body(parts[0] + "." + TestJWS.base64URL(Array("nope".utf8)) + "." + parts[2])),
        ]
        try await TestServer.with(SyntheticNotifications.configuration(database)) { client in
            for (name, body) in bodies {
                let reply = try await client.notify(body)
                #expect(reply.status == 400, "\(name)")
                #expect(reply.json["error"] is String, "\(name)")
            }
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 0, transactions: 0, notifications: 0))
    }

    /// Authentic-looking tokens that fail verification: 401 with a one-line reason.
    @Test func notAuthenticIs401() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let token = Self.subscribed()
        var parts = token.split(separator: ".").map(String.init)
        // The payload changed after signing: another bundle id, same signature.
        let payload = try #require(Data(base64URL: parts[1]))
        parts[1] = TestJWS.base64URL(
            Array(
                String(decoding: payload, as: UTF8.self)
                    .replacingOccurrences(of: "\"notificationType\":\"SUBSCRIBED\"", with: "\"notificationType\":\"REFUND\"").utf8))
        let tampered = parts.joined(separator: ".")
        // A chain of the right shape under a root the server does not trust.
        let stranger = TestJWSChain(rootName: "Not The Configured Root")
        let foreign = stranger.token(
            payload:
                #"{"notificationType":"TEST","notificationUUID":"x","signedDate":1709251200000,"data":{"bundleId":"com.example.receipts","environment":"Production"}}"#
        )
        // The outer token is genuine, the nested transaction's signature is not.
        let nestedToken = SyntheticNotifications.sign(Self.transaction.payload)
        var nestedParts = nestedToken.split(separator: ".").map(String.init)
        nestedParts[2] = Self.changingOneCharacter(nestedParts[2])
        let brokenNested = SyntheticNotifications.sign([
            "notificationType": "DID_RENEW", "notificationUUID": UUID().uuidString, "signedDate": Self.signed,
            "data": ["bundleId": Synthetic.bundleID, "environment": "Production", "signedTransactionInfo": nestedParts.joined(separator: ".")],
        ])
        // Algorithm other than ES256.
        let hmac = SyntheticNotifications.chain.token(payload: #"{"signedDate":1709251200000}"#, x5c: SyntheticNotifications.x5c, algorithm: "HS256")
        try await TestServer.with(SyntheticNotifications.configuration(database)) { client in
            for (name, token) in [("tampered", tampered), ("foreign root", foreign), ("nested", brokenNested), ("HS256", hmac)] {
                let reply = try await client.notify(SyntheticNotifications.body(token))
                #expect(reply.status == 401, "\(name)")
                let reason = try #require(reply.json["error"] as? String, "\(name)")
                #expect(!reason.contains("\n") && reason.count <= 300, "\(name)")
            }
            // Without --root-g3 the synthetic chain is not Apple's: 401 as well.
        }
        try await TestServer.with(TestServer.configuration(database)) { client in
            let status = try await client.notify(token: Self.subscribed())
            #expect(status == 401)
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 0, transactions: 0, notifications: 0))
    }

    /// Authentic notifications for an app not served, for the other environment, with another
    /// Apple id in production, or whose nested transaction names another app: 403.
    @Test func otherAppOrEnvironmentIs403() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let apps = ["\(Synthetic.bundleID)@1234567890", "com.example.sandboxonly"]
        try await TestServer.with(SyntheticNotifications.configuration(database, apps: apps)) { client in
            #expect(try await client.notify(token: Self.subscribed(bundleId: "com.example.unknown", appAppleId: 1_234_567_890)) == 403)
            #expect(try await client.notify(token: Self.subscribed(environment: "Sandbox"), sandbox: false) == 403)
            #expect(try await client.notify(token: Self.subscribed(appAppleId: 1_234_567_890), sandbox: true) == 403)
            #expect(try await client.notify(token: Self.subscribed(appAppleId: 999)) == 403)
            #expect(try await client.notify(token: Self.subscribed()) == 403)   // production without appAppleId
            let mixed = SyntheticNotifications.token(
                "DID_RENEW", signedDate: Self.signed,
                transaction: {
                    var t = Self.transaction
                    t.bundleId = "com.example.sandboxonly"
                    return t
                }(), appAppleId: 1_234_567_890)
            let reply = try await client.notify(SyntheticNotifications.body(mixed))
            #expect(reply.status == 403)
            #expect((reply.json["error"] as? String)?.hasPrefix("data.signedTransactionInfo") == true)
            var sandboxRenewal = Self.renewal
            sandboxRenewal.environment = "Sandbox"
            let mixedRenewal = SyntheticNotifications.token(
                "DID_RENEW", signedDate: Self.signed, transaction: Self.transaction,
                renewal: sandboxRenewal, appAppleId: 1_234_567_890)
            let renewalReply = try await client.notify(SyntheticNotifications.body(mixedRenewal))
            #expect(renewalReply.status == 403)
            #expect((renewalReply.json["error"] as? String)?.hasPrefix("data.signedRenewalInfo") == true)
            // The right Apple id in production, and sandbox notifications (which carry none) are stored.
            #expect(try await client.notify(token: Self.subscribed(appAppleId: 1_234_567_890)) == 200)
            #expect(try await client.notify(token: Self.subscribed(environment: "Sandbox"), sandbox: true) == 200)
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 0, transactions: 2, notifications: 2))
    }

    /// Apple retries until it gets 200: the same notification twice is stored once, and answered 200
    /// both times; a TEST notification is recorded.
    @Test(arguments: TestDatabase.backends)
    func replayedIsStoredOnce(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let token = Self.subscribed()
        let test = SyntheticNotifications.token("TEST", signedDate: Self.signed)
        try await TestServer.with(SyntheticNotifications.configuration(database)) { client in
            for _ in 0 ..< 3 {
                let reply = try await client.notify(SyntheticNotifications.body(token))
                #expect(reply.status == 200)
                #expect(reply.json["status"] as? String == "stored")
            }
            #expect(try await client.notify(token: test) == 200)
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 0, transactions: 1, notifications: 2))
        let types = try await Inspect.notifications(database).map(\.type).sorted()
        #expect(types == ["SUBSCRIBED", "TEST"])
    }

    /// Concurrent retries of the same notifications on one server: each stored once.
    @Test(arguments: TestDatabase.backends)
    func concurrentRetriesStoreOnce(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let tokens = (0 ..< 4).map { _ in Self.subscribed() }
        try await TestServer.with(SyntheticNotifications.configuration(database)) { client in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0 ..< 32 {
                    group.addTask { try await client.notify(token: tokens[index % tokens.count]) }
                }
                for try await status in group { #expect(status == 200) }
            }
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 0, transactions: 1, notifications: 4))
    }

    /// A storage failure is 503 (Apple retries), never 200 and never a 500; nothing is half stored.
    @Test(arguments: TestDatabase.backends)
    func storageFailureIs503(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await TestServer.with(SyntheticNotifications.configuration(database)) { client in
            #expect(try await client.notify(token: Self.subscribed()) == 200)
            try await Inspect.breakInserts(database, table: "notifications")
            var renewal = Self.transaction
            renewal.transactionId = "4100000002"
            let renewed = SyntheticNotifications.token("DID_RENEW", signedDate: Self.signed, transaction: renewal, renewal: Self.renewal)
            for _ in 0 ..< 2 {
                let reply = try await client.notify(SyntheticNotifications.body(renewed))
                #expect(reply.status == 503)
                #expect(reply.json["error"] as? String == "storage unavailable; retry later")
            }
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 0, transactions: 1, notifications: 1))
    }

    /// `/metrics` counts notifications by endpoint, verified type and result.
    @Test func metricsCountByTypeAndResult() async throws {
        let database = try await TestDatabase.make(.sqlite)
        try await TestServer.withMetrics(SyntheticNotifications.configuration(database)) { client, metrics in
            #expect(try await client.notify(token: Self.subscribed()) == 200)
            #expect(try await client.notify(token: SyntheticNotifications.token("TEST", signedDate: Self.signed), sandbox: false) == 200)
            #expect(try await client.notify(token: SyntheticNotifications.token("SOMETHING_NEW", signedDate: Self.signed)) == 200)
            #expect(try await client.notify(Data("{}".utf8), sandbox: true).status == 400)
            #expect(try await client.notify(token: Self.subscribed(), sandbox: true) == 403)
            let lines = try await metrics.lines()
            for expected in [
                #"receipt_server_notifications_total{endpoint="/notifications/v2",type="SUBSCRIBED",result="stored"} 1"#,
                #"receipt_server_notifications_total{endpoint="/notifications/v2",type="TEST",result="stored"} 1"#,
                #"receipt_server_notifications_total{endpoint="/notifications/v2",type="other",result="stored"} 1"#,
                #"receipt_server_notifications_total{endpoint="/sandbox/notifications/v2",type="unknown",result="malformed"} 1"#,
                #"receipt_server_notifications_total{endpoint="/sandbox/notifications/v2",type="SUBSCRIBED",result="refused"} 1"#,
                #"receipt_server_notification_verification_seconds_count 4"#,
                #"receipt_server_storage_seconds_count{operation="notification"} 3"#,
                #"receipt_server_http_requests_total{endpoint="/notifications/v2",code="200"} 3"#,
                #"receipt_server_http_requests_total{endpoint="/sandbox/notifications/v2",code="400"} 1"#,
                #"receipt_server_http_requests_total{endpoint="/sandbox/notifications/v2",code="403"} 1"#,
            ] {
                #expect(lines.contains(expected), "missing: \(expected)")
            }
        }
    }

    /// Bodies over `--max-body` get 413 before they are read; nothing else is ever a 5xx.
    @Test func oversizedBodyIs413() async throws {
        let database = try await TestDatabase.make(.sqlite)
        var configuration = SyntheticNotifications.configuration(database)
        configuration.maxBody = 1_000
        try await TestServer.with(configuration) { client in
            let reply = try await client.notify(SyntheticNotifications.body(String(repeating: "A", count: 2_000)))
            #expect(reply.status == 413)
        }
    }
}

extension NotificationEndpointTests {
    /// `text` with its 11th character replaced by another base64url one (still canonical base64url).
    static func changingOneCharacter(_ text: String) -> String {
        var characters = Array(text)
        characters[10] = characters[10] == "A" ? "B" : "A"
        return String(characters)
    }
}

extension Data {
    /// Unpadded base64url (RFC 4648 §5).
    init?(base64URL text: String) {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        self.init(base64Encoded: standard)
    }
}
