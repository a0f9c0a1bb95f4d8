import CryptoExtras
import Foundation
import HummingbirdTesting
import ReceiptService
import ReceiptStore
import ReceiptTestSupport
import Testing

/// Every status of the hosted-validator API (`POST /v1/receipt`, `/v1/receipt/encrypted`), through
/// the router, with synthetic receipts signed by the test chain the server trusts through `--root`.
@Suite struct HostedStatusTests {
    static let subscription = StatusTests.subscription
    static let otherApp = Synthetic.receipt([Synthetic.consumable("7000000001", purchased: 1_706_000_000)], bundleID: HostedSetup.otherBundleID)

    func withServer(
        _ backend: TestDatabase.Backend = .sqlite, keyRate: Double = 100, keyBurst: Int = 200,
        _ body: @escaping @Sendable (HostedSetup, any TestClientProtocol) async throws -> Void
    ) async throws {
        let setup = try await HostedSetup.make(backend)
        var configuration = TestServer.configuration(setup.database)
        configuration.keyRate = keyRate
        configuration.keyBurst = keyBurst
        try await TestServer.with(configuration) { client in try await body(setup, client) }
    }

    /// 0: the `verifyReceipt` answer whole as `receipt`, for a form (base64 unescaped, `+` kept, as
    /// the reference's sample code posts it) and for JSON; the shared secret is not asked for.
    @Test(arguments: TestDatabase.backends)
    func validIsZeroWithTheVerifyReceiptAnswer(_ backend: TestDatabase.Backend) async throws {
        try #require(Data(Self.subscription).base64EncodedString().contains("+"), "the form case must carry a +")
        try await withServer(backend) { setup, client in
            let form = try await client.hosted(HostedSetup.form(apiKey: setup.key, token: setup.token, receipt: Self.subscription))
            let json = try await client.hosted(
                HostedSetup.json(apiKey: setup.key, token: setup.token, receipt: Self.subscription),
                contentType: "application/json")
            let verifyReceipt = try await client.verify(Synthetic.body(Self.subscription, password: "s3cret"))
            for reply in [form, json] {
                #expect(reply.code == 200 && reply.status == 0 && reply.description == "Receipt valid")
                // The reference's shape: `receipt` is Apple's receipt object (request dates inside),
                // the rest of verifyReceipt's answer beside it.
                #expect(Set(reply.object.keys) == ["status", "description", "environment", "receipt", "latest_receipt_info", "latest_receipt"])
                let receipt = try #require(reply.object["receipt"] as? [String: Any])
                #expect(receipt["bundle_id"] as? String == Synthetic.bundleID && receipt["in_app"] is [Any])
                #expect(receipt["request_date_ms"] is String && receipt["receipt"] == nil)
                #expect(sameJSON(withoutRequestDates(verifyReceiptShape(reply.object)), withoutRequestDates(verifyReceipt)))
                #expect(JSONAnswer.latestTransactionIDs(reply.object) == ["5000000001"])
            }
        }
    }

    /// A sandbox receipt is answered in its own environment (production first, then sandbox).
    @Test func sandboxReceiptIsZeroInSandbox() async throws {
        let sandbox = Synthetic.receipt([Synthetic.consumable("7100000001", purchased: 1_706_000_000)], environment: "Sandbox")
        try await withServer { setup, client in
            let reply = try await client.hosted(HostedSetup.form(apiKey: setup.key, token: setup.token, receipt: sandbox))
            #expect(reply.status == 0)
            #expect(reply.object["environment"] as? String == "Sandbox")
        }
    }

    /// 401 for an unknown, revoked or missing key, an unknown or missing token, and a token of an
    /// app the key may not use; the body is the same whatever the reason, and a wrong key gives
    /// the same answer whether the token exists or not.
    @Test(arguments: TestDatabase.backends)
    func authenticationFailuresAre401(_ backend: TestDatabase.Backend) async throws {
        let setup = try await HostedSetup.make(backend)
        try await TestServer.withMetrics(TestServer.configuration(setup.database)) { client, metricsReader in
            let unknownKey = "act_0123456789abcdef_" + String(repeating: "0", count: 64)
            let forgedSecret = String(setup.key.dropLast(4)) + (setup.key.hasSuffix("0000") ? "1111" : "0000")
            let unknownToken = "app_0123456789abcdef_" + String(repeating: "0", count: 64)
            let cases: [(String, String?, String?)] = [
                ("unknown key", unknownKey, setup.token), ("unknown key, unknown token", unknownKey, unknownToken),
                ("known id, wrong secret", forgedSecret, setup.token), ("not a key", "hello", setup.token),
                ("revoked key", setup.revokedKey, setup.token), ("missing key", nil, setup.token),
                ("unknown token", setup.key, unknownToken), ("missing token", setup.key, nil),
                ("token of another key's app", setup.otherKey, setup.token), ("the token as key", setup.token, setup.key),
            ]
            var bodies = Set<String>()
            for (name, key, token) in cases {
                let reply = try await client.hosted(HostedSetup.form(apiKey: key, token: token, receipt: Self.subscription))
                #expect(reply.code == 200 && reply.status == 401, "\(name)")
                #expect(reply.object["receipt"] == nil, "\(name)")
                bodies.insert(reply.text)
            }
            #expect(bodies.count == 1, "every 401 reads the same: \(bodies)")
            // The metrics say no more than the answers: one reason for every 401.
            let metrics = try await metricsReader.text()
            for line in [
                #"receipt_server_hosted_auth_failures_total{reason="unauthorized"} 10"#,
                #"receipt_server_hosted_answers_total{endpoint="/v1/receipt",status="401"} 10"#,
            ] {
                #expect(metrics.contains(line), "missing: \(line)")
            }
            let reasons = metrics.split(separator: "\n").filter { $0.hasPrefix("receipt_server_hosted_auth_failures_total{") }
            #expect(reasons.count == 1, "\(reasons)")
        }
    }

    /// 403: an authentic receipt of another app than the token's (nothing stored), and the
    /// encrypted endpoint for an app without an encryption key.
    @Test func wrongAppIs403() async throws {
        try await withServer { setup, client in
            let reply = try await client.hosted(HostedSetup.form(apiKey: setup.key, token: setup.token, receipt: Self.otherApp))
            #expect(reply.status == 403 && reply.object["receipt"] == nil)
            #expect(reply.description?.contains(HostedSetup.otherBundleID) == true)
            let reverse = try await client.hosted(HostedSetup.form(apiKey: setup.key, token: setup.otherToken, receipt: Self.subscription))
            #expect(reverse.status == 403)
            let noKey = try await client.hosted(
                HostedSetup.form(apiKey: setup.key, token: setup.otherToken, receipt: Self.otherApp),
                encrypted: true)
            #expect(noKey.status == 403 && noKey.object["encrypted"] == nil)
            #expect(try await Inspect.counts(setup.database).receipts == 0, "a 403 stores nothing")
            // The other app's own token: 0.
            let own = try await client.hosted(HostedSetup.form(apiKey: setup.otherKey, token: setup.otherToken, receipt: Self.otherApp))
            #expect(own.status == 0)
        }
    }

    /// 403 too for a production receipt naming another Apple id (`app_item_id`) than the app's,
    /// when the app has one; sandbox receipts carry none and are not held to it.
    @Test func otherAppleIDIs403() async throws {
        let setup = try await HostedSetup.make(.sqlite)
        let matching = "com.example.apple-id", other = "com.example.other-apple-id"
        let tokens = try await Stores.with(DatabaseLocation(setup.database.url), secrets: TestSecrets.key, logger: TestServer.logger) { store in
            let admin = CredentialAdmin(store: store, secrets: TestSecrets.key)
            return (
                try await admin.addApp(matching, sharedSecret: nil, appleID: TestReceipt().appItemIdentifier, encryptionKey: false).token,
                try await admin.addApp(other, sharedSecret: nil, appleID: 999, encryptionKey: false).token
            )
        }
        let purchase = [Synthetic.consumable("7200000001", purchased: 1_706_000_000)]
        try await TestServer.with(TestServer.configuration(setup.database)) { client in
            let form = { (token: String, receipt: [UInt8]) in HostedSetup.form(apiKey: setup.key, token: token, receipt: receipt) }
            let named = try await client.hosted(form(tokens.0, Synthetic.receipt(purchase, bundleID: matching)))
            #expect(named.status == 0)
            let refused = try await client.hosted(form(tokens.1, Synthetic.receipt(purchase, bundleID: other)))
            #expect(refused.status == 403 && refused.object["receipt"] == nil)
            #expect(refused.description?.contains("\(TestReceipt().appItemIdentifier)") == true)
            let sandbox = try await client.hosted(form(tokens.1, Synthetic.receipt(purchase, environment: "Sandbox", bundleID: other)))
            #expect(sandbox.status == 0)
        }
    }

    /// Apple's codes, each with a description: 21000 (neither a form nor a JSON object), 21002 (missing,
    /// not base64, not a receipt), 21003 (tampered, or another chain).
    @Test func appleCodesPassThrough() async throws {
        var tampered = Self.subscription
        let id = Array("5000000001".utf8)
        let index = try #require(tampered.indices.first { tampered[$0...].starts(with: id) })
        tampered[index] = UInt8(ascii: "6")
        let damaged = tampered
        var payload = TestReceipt()
        payload.bundleIdentifier = Synthetic.bundleID
        let forged = TestChain.appleRootImpersonation().receipt(payload)
        try await withServer { setup, client in
            let form = { (receipt: [UInt8]?) in HostedSetup.form(apiKey: setup.key, token: setup.token, receipt: receipt) }
            let cases: [(Data, String, Int)] = [
                (Data("apikey=%zz".utf8), "application/x-www-form-urlencoded", 21000),
                (Data([0xFF, 0xFE]), "application/x-www-form-urlencoded", 21000),
                (Data("[1,2]".utf8), "application/json", 21000),
                (form(nil), "application/x-www-form-urlencoded", 21002),
                (Data((String(decoding: form(nil), as: UTF8.self) + "&receipt=!!!").utf8), "application/x-www-form-urlencoded", 21002),
                (form(Array("not a receipt".utf8)), "application/x-www-form-urlencoded", 21002),
                (form(damaged), "application/x-www-form-urlencoded", 21003),
                (form(forged), "application/x-www-form-urlencoded", 21003),
            ]
            for (body, type, expected) in cases {
                let reply = try await client.hosted(body, contentType: type)
                #expect(reply.code == 200 && reply.status == expected, "\(String(decoding: body.prefix(30), as: UTF8.self))")
                #expect(reply.description?.isEmpty == false && reply.object["receipt"] == nil)
            }
        }
    }

    /// 500 when storage fails (and only then); errors are never encrypted.
    @Test(arguments: TestDatabase.backends)
    func storageFailureIs500(_ backend: TestDatabase.Backend) async throws {
        try await withServer(backend) { setup, client in
            try await Inspect.breakInserts(setup.database)
            for encrypted in [false, true] {
                let reply = try await client.hosted(
                    HostedSetup.form(apiKey: setup.key, token: setup.token, receipt: Self.subscription),
                    encrypted: encrypted)
                #expect(reply.status == 500 && reply.description?.isEmpty == false)
                #expect(reply.object["encrypted"] == nil && reply.object["receipt"] == nil)
            }
        }
    }

    /// The encrypted answer: base64 of a 16-byte IV and AES-256-CBC/PKCS#7 of the plain answer under
    /// the app's key; decrypted with the same library it is the plain answer; a new IV every time.
    @Test(arguments: TestDatabase.backends)
    func encryptedAnswerDecryptsToThePlainOne(_ backend: TestDatabase.Backend) async throws {
        try await withServer(backend) { setup, client in
            let body = HostedSetup.form(apiKey: setup.key, token: setup.token, receipt: Self.subscription)
            let plain = try await client.hosted(body)
            var ivs = Set<[UInt8]>()
            for _ in 0 ..< 2 {
                let reply = try await client.hosted(body, encrypted: true)
                #expect(reply.status == 0 && Set(reply.object.keys) == ["status", "encrypted"])
                let sealed = try #require((reply.object["encrypted"] as? String).flatMap { Data(base64Encoded: $0) })
                #expect(sealed.count > 16 && (sealed.count - 16) % 16 == 0)
                ivs.insert(Array(sealed.prefix(16)))
                let opened = try AES._CBC.decrypt(
                    sealed.dropFirst(16), using: SymmetricKey(data: setup.encryptionKey),
                    iv: AES._CBC.IV(ivBytes: sealed.prefix(16)))
                let decrypted = try JSONAnswer.object(opened)
                #expect(decrypted["status"] as? Int == 0 && decrypted["description"] as? String == "Receipt valid")
                #expect(decrypted["receipt"] is [String: Any])
                #expect(sameJSON(withoutRequestDates(decrypted), withoutRequestDates(plain.object)))
                // Another key does not open it (PKCS#7 padding fails, or the text is not the answer).
                let wrong = try? AES._CBC.decrypt(
                    sealed.dropFirst(16), using: SymmetricKey(size: .bits256), iv: AES._CBC.IV(ivBytes: sealed.prefix(16)))
                #expect(wrong.map { (try? JSONAnswer.object($0)) == nil } ?? true)
            }
            #expect(ivs.count == 2, "a fresh IV per answer")
            let refused = try await client.hosted(
                HostedSetup.form(apiKey: setup.revokedKey, token: setup.token, receipt: Self.subscription),
                encrypted: true)
            #expect(refused.status == 401 && refused.description != nil)
        }
    }
}
