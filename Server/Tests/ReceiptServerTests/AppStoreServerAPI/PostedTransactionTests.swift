import Foundation
import Testing

/// `POST /inApps/v1/transactions`: what an app's backend posts is verified, stored by the
/// notifications' rule and answered with the customer's statuses; it is then read by the App
/// Store Server API and by verifyReceipt's history. Refusals are Apple's 400 bodies.
@Suite struct PostedTransactionTests {
    typealias N = SyntheticNotifications
    typealias S = SignedAPIData
    static let original = "5100000001", renewal = "5100000002"

    @Test(arguments: TestDatabase.backends)
    func postedTransactionIsStoredAnsweredAndRead(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let now = APISession.now
        let purchased = now - 40 * S.day
        let receipt = Synthetic.receipt(
            [Synthetic.renewal(Self.original, original: Self.original, purchased: purchased / 1000)], created: purchased / 1000 + 60)
        try await APISession.with(database) { api in
            let token = S.transaction(
                N.Transaction(
                    transactionId: Self.renewal, originalTransactionId: Self.original, purchaseDate: now - 10 * S.day, expiresDate: now + 20 * S.day,
                    signedDate: now - 60_000))
            let reply = try await api.post("/inApps/v1/transactions", S.posted(token))
            #expect(reply.contentType == "application/json")
            let body = try StatusBody(try reply.ok())
            #expect(body.items == [StatusBody.Item(group: "21000001", original: Self.original, status: 1, transaction: token, renewal: nil)])
            #expect(body.json["environment"] as? String == "Production" && body.json["bundleId"] as? String == Synthetic.bundleID)
            // Stored: Get Transaction Info by the posted id, the statuses by its original id, and history.
            #expect(try await api.transactionInfo(Self.renewal) == token)
            #expect(try await api.statuses(Self.original).items == body.items)
            #expect(try await api.allHistory(Self.original).tokens == [token])
            // verifyReceipt's history shows it beside the receipt's own purchase.
            let answer = try await api.client.verify(Synthetic.body(receipt))
            #expect(JSONAnswer.latestTransactionIDs(answer) == [Self.renewal, Self.original])
        }
    }

    @Test(arguments: TestDatabase.backends)
    func refusalsAndAppTransactions(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let now = APISession.now
        try await APISession.with(database) { api in
            let base = N.Transaction(
                transactionId: Self.original, originalTransactionId: Self.original, purchaseDate: now - S.day, expiresDate: now + 29 * S.day,
                signedDate: now - 60_000)
            let token = S.transaction(base)
            // Another app's caller: the payload's bundleId is not the JWT's bid.
            var other = api
            other.bundleID = "com.example.other"
            try await Self.expectBadRequest(try await other.post("/inApps/v1/transactions", S.posted(token)))
            // A sandbox token at the production prefix, and a production token at the sandbox prefix.
            var sandboxTransaction = base
            sandboxTransaction.environment = "Sandbox"
            try await Self.expectBadRequest(try await api.post("/inApps/v1/transactions", S.posted(S.transaction(sandboxTransaction))))
            try await Self.expectBadRequest(try await api.post("/inApps/v1/transactions", S.posted(token), sandbox: true))
            // A signature that does not verify.
            var parts = token.split(separator: ".").map(String.init)
            parts[2] = String(parts[2].reversed())
            try await Self.expectBadRequest(try await api.post("/inApps/v1/transactions", S.posted(parts.joined(separator: "."))))
            // Not one of the two members.
            try await Self.expectBadRequest(try await api.post("/inApps/v1/transactions", json: ["signedPayload": token]))
            try await Self.expectBadRequest(try await api.post("/inApps/v1/transactions", Data("[1]".utf8)))
            // Nothing refused was stored.
            #expect(try await api.get("/inApps/v1/transactions/\(Self.original)").status == 404)
            #expect(try await api.get("/inApps/v1/transactions/\(Self.original)", sandbox: true).status == 404)

            // An app transaction: verified, kept (AppTransactionInfoTests), no subscriptions.
            let app: [String: Any] = [
                "bundleId": Synthetic.bundleID, "receiptType": "Production", "appAppleId": 1_234_567_890, "applicationVersion": "42",
                "originalApplicationVersion": "1", "originalPurchaseDate": now - 90 * S.day, "receiptCreationDate": now - 60_000,
                "signedDate": now - 60_000, "requestDate": now - 60_000, "deviceVerification": "dGVzdA==",
                "deviceVerificationNonce": "7e3fb20b-4cdb-47cc-936d-99d65f608138", "originalPlatform": "iOS", "appTransactionId": "704389123456789",
            ]
            let reply = try await api.post("/inApps/v1/transactions", json: ["signedAppTransaction": N.sign(app)])
            let body = try reply.ok()
            #expect((body["data"] as? [Any])?.isEmpty == true && body["environment"] as? String == "Production", "\(body)")
            var sandboxApp = app
            sandboxApp["receiptType"] = "Sandbox"
            try await Self.expectBadRequest(try await api.post("/inApps/v1/transactions", json: ["signedAppTransaction": N.sign(sandboxApp)]))
            let sandboxReply = try await api.post("/inApps/v1/transactions", json: ["signedAppTransaction": N.sign(sandboxApp)], sandbox: true)
            #expect(try sandboxReply.ok()["environment"] as? String == "Sandbox")
        }
    }

    /// 400 4000000 as Apple's JSON.
    static func expectBadRequest(_ reply: APIReply, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(reply.status == 400 && reply.contentType == "application/json", "\(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        let body = try JSONAnswer.object(reply.body)
        #expect(body["errorCode"] as? Int == 4_000_000, "\(reply.text)", sourceLocation: sourceLocation)
        #expect((body["errorMessage"] as? String)?.hasPrefix("Bad request.") == true, sourceLocation: sourceLocation)
    }
}
