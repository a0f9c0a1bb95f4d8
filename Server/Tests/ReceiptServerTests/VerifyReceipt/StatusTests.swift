import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReceiptTestSupport
import Testing

/// Every status of Apple's table, in its order, through HTTP (the router test client), with
/// synthetic receipts signed by the test chain the server trusts through `--root`.
@Suite struct StatusTests {
    static let subscription = Synthetic.receipt([Synthetic.renewal("5000000001", original: "5000000001", purchased: 1_706_000_000)])
    static let consumable = Synthetic.receipt([Synthetic.consumable("5000000002", purchased: 1_706_000_000)])

    func withServer(
        apps: [String] = [], allowXcode: Bool = false,
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let database = try await TestDatabase.make(.sqlite)
        return try await TestServer.with(TestServer.configuration(database, apps: apps, allowXcode: allowXcode), body)
    }

    func raw(
        _ client: any TestClientProtocol, _ body: [UInt8], uri: String = "/verifyReceipt",
        method: HTTPRequest.Method = .post
    ) async throws -> Int {
        try await client.execute(uri: uri, method: method, body: ByteBuffer(bytes: body)) { response in
            #expect(response.status == .ok)
            return try JSONAnswer.status(JSONAnswer.object(response.body))
        }
    }

    @Test func validReceiptIsZero() async throws {
        try await withServer { client in
            let answer = try await client.verify(Synthetic.body(Self.subscription))
            #expect(try JSONAnswer.status(answer) == 0)
            #expect(answer["environment"] as? String == "Production")
            let receipt = try #require(answer["receipt"] as? [String: Any])
            #expect(receipt["bundle_id"] as? String == Synthetic.bundleID)
            #expect(receipt["request_date"] is String && receipt["request_date_ms"] is String && receipt["request_date_pst"] is String)
            #expect(JSONAnswer.latestTransactionIDs(answer) == ["5000000001"])
            #expect(answer["latest_receipt"] as? String == Data(Self.subscription).base64EncodedString())
        }
    }

    @Test func receiptWithoutSubscriptionHasNoLatestKeys() async throws {
        try await withServer { client in
            let answer = try await client.verify(Synthetic.body(Self.consumable))
            #expect(try JSONAnswer.status(answer) == 0)
            #expect(answer["latest_receipt_info"] == nil && answer["latest_receipt"] == nil)
        }
    }

    @Test func sandboxReceiptAtSandboxIsZeroAndSandbox() async throws {
        for environment in ["Sandbox", "ProductionSandbox", "ProductionVPPSandbox"] {
            let bytes = Synthetic.receipt([Synthetic.consumable("1", purchased: 1_706_000_000)], environment: environment)
            try await withServer { client in
                let answer = try await client.verify(Synthetic.body(bytes), sandbox: true)
                #expect(try JSONAnswer.status(answer) == 0)
                #expect(answer["environment"] as? String == "Sandbox")
                try await client.expectStatus(21007, Synthetic.body(bytes), "\(environment) at production")
            }
        }
    }

    @Test func productionReceiptAtSandboxIs21008() async throws {
        for environment in ["Production", "ProductionVPP"] {
            let bytes = Synthetic.receipt([Synthetic.consumable("1", purchased: 1_706_000_000)], environment: environment)
            try await withServer { client in
                try await client.expectStatus(21008, Synthetic.body(bytes), sandbox: true)
                try await client.expectStatus(0, Synthetic.body(bytes))
            }
        }
    }

    /// 21000: the body is not a JSON object.
    @Test func notAJSONObjectIs21000() async throws {
        let bodies: [[UInt8]] = [
            [], Array("not json".utf8), Array("[1,2]".utf8), Array("\"receipt\"".utf8), Array("42".utf8), Array("null".utf8),
            Array("{\"receipt-data\": ".utf8),   // truncated
            [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D],   // {"\xFF\xFE":1}: not UTF-8
            Array(repeating: UInt8(ascii: "["), count: 100_000),   // deep nesting, unterminated
            Array(String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)).map { $0.asciiValue! },
            // Nesting past the parser's depth limit makes the body unreadable as a whole.
            Array((#"{"receipt-data": "# + String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000) + "}").utf8),
        ]
        try await withServer { client in
            for sandbox in [false, true] {
                for body in bodies {
                    let status = try await raw(client, body, uri: sandbox ? "/sandbox/verifyReceipt" : "/verifyReceipt")
                    #expect(status == 21000, "\(String(decoding: body.prefix(20), as: UTF8.self))")
                }
            }
        }
    }

    /// 21000 for every method but POST, on both paths.
    @Test func otherMethodsAre21000() async throws {
        try await withServer { client in
            for uri in ["/verifyReceipt", "/sandbox/verifyReceipt"] {
                for method in [HTTPRequest.Method.get, .put, .delete, .patch, .options, HTTPRequest.Method("PROPFIND")!] {
                    let status = try await raw(client, [], uri: uri, method: method)
                    #expect(status == 21000, "\(method) \(uri)")
                }
            }
        }
    }

    /// 21002: `receipt-data` missing, of another type, not base64, or not a receipt.
    @Test func malformedReceiptDataIs21002() async throws {
        let truncated = Data(Self.subscription.prefix(Self.subscription.count / 2)).base64EncodedString()
        let objects: [String] = [
            "{}", #"{"password": "x"}"#, #"{"receipt-data": null}"#, #"{"receipt-data": 42}"#, #"{"receipt-data": true}"#,
            #"{"receipt-data": ["MIIT"]}"#, #"{"receipt-data": {"a": 1}}"#, #"{"receipt-data": ""}"#,
            #"{"receipt-data": "!!!not base64!!!"}"#, #"{"receipt-data": "bm90IGEgcmVjZWlwdA=="}"#,
            #"{"receipt-data": "\#(truncated)"}"#,
            #"{"receipt-data": \#(String(repeating: "[", count: 100) + String(repeating: "]", count: 100))}"#,
        ]
        try await withServer { client in
            for object in objects {
                let production = try await raw(client, Array(object.utf8))
                let sandbox = try await raw(client, Array(object.utf8), uri: "/sandbox/verifyReceipt")
                #expect(production == 21002 && sandbox == 21002, "\(object.prefix(40))")
            }
        }
    }

    /// Base64 with line breaks (as `base64EncodedString(options: .lineLength64Characters)` writes it) is accepted.
    @Test func base64WithLineBreaksIsAccepted() async throws {
        let text = Data(Self.consumable).base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        let body = try JSONSerialization.data(withJSONObject: ["receipt-data": text])
        try await withServer { client in
            try await client.expectStatus(0, body)
        }
    }

    /// 21003: a tampered receipt, another chain, and a real Apple receipt while `--root` replaces Apple's root.
    @Test func notAuthenticIs21003() async throws {
        var tampered = Self.subscription
        let id = Array("5000000001".utf8)   // the purchase's transaction id, inside the signed payload
        let index = try #require(tampered.indices.first { tampered[$0...].starts(with: id) })
        tampered[index] = UInt8(ascii: "6")
        let altered = tampered
        let impostor = TestChain.appleRootImpersonation()
        var payload = TestReceipt()
        payload.bundleIdentifier = Synthetic.bundleID
        let forged = impostor.receipt(payload)
        try await withServer { client in
            try await client.expectStatus(21003, Synthetic.body(altered))
            try await client.expectStatus(21003, Synthetic.body(forged))
            try await client.expectStatus(21003, Synthetic.body(forged), sandbox: true)
            if Fixtures.shouldRun {
                try await client.expectStatus(21003, Synthetic.body(Fixtures.bytes("receipts/production.der")))
            }
        }
    }

    /// 21003 comes before 21007/21008: a forged sandbox receipt at production is not authentic first.
    @Test func authenticityIsCheckedBeforeEnvironment() async throws {
        var payload = TestReceipt()
        payload.environment = "Sandbox"
        let forged = TestChain.appleRootImpersonation().receipt(payload)
        try await withServer { client in
            try await client.expectStatus(21003, Synthetic.body(forged))
        }
    }

    /// 21010: the bundle id is not among `--app`; the environment check comes first.
    @Test func appNotServedIs21010() async throws {
        let sandbox = Synthetic.receipt([Synthetic.consumable("1", purchased: 1_706_000_000)], environment: "Sandbox")
        try await withServer(apps: ["com.example.other"]) { client in
            try await client.expectStatus(21010, Synthetic.body(Self.consumable))
            try await client.expectStatus(21007, Synthetic.body(sandbox))
        }
        try await withServer(apps: ["com.example.other", Synthetic.bundleID]) { client in
            try await client.expectStatus(0, Synthetic.body(Self.consumable))
        }
    }

    /// 21004: the app has a shared secret, the receipt holds a subscription, the password is missing or differs.
    @Test func sharedSecretIs21004() async throws {
        let secret = "0123456789abcdef0123456789abcdef"
        try await withServer(apps: ["\(Synthetic.bundleID)=\(secret)"]) { client in
            try await client.expectStatus(21004, Synthetic.body(Self.subscription))
            try await client.expectStatus(21004, Synthetic.body(Self.subscription, password: "wrong"))
            try await client.expectStatus(21004, Synthetic.body(Self.subscription, password: secret + "0"))
            try await client.expectStatus(21004, Synthetic.body(Self.subscription, password: String(secret.dropLast())))
            let wrongType = try JSONSerialization.data(withJSONObject: [
                "receipt-data": Data(Self.subscription).base64EncodedString(), "password": 42,
            ])
            try await client.expectStatus(21004, wrongType)
            try await client.expectStatus(0, Synthetic.body(Self.subscription, password: secret))
            // No subscription: no password needed.
            try await client.expectStatus(0, Synthetic.body(Self.consumable))
        }
        // 21010 comes before 21004.
        try await withServer(apps: ["com.example.other=\(secret)"]) { client in
            try await client.expectStatus(21010, Synthetic.body(Self.subscription))
        }
    }

    /// 21100 with `"is-retryable": true` when the database refuses the write.
    @Test(arguments: TestDatabase.backends)
    func storageFailureIs21100(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await TestServer.with(TestServer.configuration(database)) { client in
            try await client.expectStatus(0, Synthetic.body(Self.consumable))
            try await Inspect.breakInserts(database)
            let answer = try await client.verify(Synthetic.body(Self.subscription))
            #expect(try JSONAnswer.status(answer) == 21100)
            #expect(answer["is-retryable"] as? Bool == true)
            #expect(answer.count == 2)
            // A receipt stored before the failure is still answered (nothing new to write).
            try await client.expectStatus(0, Synthetic.body(Self.consumable))
        }
    }

    /// Status codes before 21100 never touch storage: with writes failing they are unchanged.
    @Test func earlierStatusesDoNotNeedStorage() async throws {
        let database = try await TestDatabase.make(.sqlite)
        try await TestServer.with(TestServer.configuration(database, apps: ["\(Synthetic.bundleID)=s3cret"])) { client in
            try await Inspect.breakInserts(database)
            try await client.expectStatus(21004, Synthetic.body(Self.subscription))
            try await client.expectStatus(21008, Synthetic.body(Self.subscription), sandbox: true)
            try await client.expectStatus(21100, Synthetic.body(Self.subscription, password: "s3cret"))
        }
    }
}
