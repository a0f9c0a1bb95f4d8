import Foundation
import ReceiptTestSupport
import Testing

/// Get App Transaction Info (`GET /inApps/v1/transactions/appTransactions/{transactionId}`, issue
/// 40): app transactions posted by an app's backend or carried by `RESCIND_CONSENT` are stored
/// once per app, environment and `appTransactionId`, and served byte for byte by their own id or
/// by any transaction id of a customer whose signed transactions carry that `appTransactionId`.
/// Both backends.
@Suite struct AppTransactionInfoTests {
    typealias N = SyntheticNotifications
    typealias S = SignedAPIData
    static let appTransactionID = "704000000000000001"
    static let original = "5300000001", renewal = "5300000002"

    /// An app transaction of the synthetic app, signed by the server's trusted test chain.
    static func appTransaction(
        id: String? = appTransactionID, environment: String = "Production", signed: Int64, bundleID: String = Synthetic.bundleID
    ) -> String {
        var payload: [String: Any] = [
            "bundleId": bundleID, "receiptType": environment, "applicationVersion": "42", "originalApplicationVersion": "1",
            "originalPurchaseDate": signed - 90 * S.day, "receiptCreationDate": signed, "signedDate": signed, "originalPlatform": "iOS",
        ]
        payload["appTransactionId"] = id
        if environment == "Production" { payload["appAppleId"] = 1_234_567_890 }
        return N.sign(payload)
    }

    /// A subscription transaction of `original` carrying `appTransactionId` (nil: none, as before 2025).
    static func transaction(_ id: String, original: String, appTransactionID: String?, environment: String = "Production") -> String {
        let now = APISession.now
        var base = N.Transaction(
            transactionId: id, originalTransactionId: original, purchaseDate: now - S.day, expiresDate: now + 29 * S.day, signedDate: now - 60_000)
        base.environment = environment
        return S.transaction(base, ["appTransactionId": appTransactionID])
    }

    /// Posts `{"signedAppTransaction": token}`; returns the answer.
    static func post(_ api: APISession, _ token: String, sandbox: Bool = false) async throws -> APIReply {
        try await api.post("/inApps/v1/transactions", json: ["signedAppTransaction": token], sandbox: sandbox)
    }

    static func info(_ api: APISession, _ id: String, sandbox: Bool = false) async throws -> APIReply {
        try await api.get("/inApps/v1/transactions/appTransactions/\(id)", sandbox: sandbox)
    }

    /// The app transaction served for `id`: exactly `{"signedAppTransactionInfo":"…"}`.
    static func served(_ api: APISession, _ id: String, sandbox: Bool = false) async throws -> String? {
        let reply = try await info(api, id, sandbox: sandbox)
        let token = try reply.ok()["signedAppTransactionInfo"] as? String
        #expect(reply.contentType == "application/json")
        #expect(reply.text == #"{"signedAppTransactionInfo":"\#(token ?? "")"}"#)
        return token
    }

    /// Apple's error body.
    static func expectError(
        _ reply: APIReply, _ status: Int, _ code: Int, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(reply.status == status && reply.contentType == "application/json", "\(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        let body = try JSONAnswer.object(reply.body)
        #expect(body["errorCode"] as? Int == code, "\(reply.text)", sourceLocation: sourceLocation)
        #expect(body["errorMessage"] as? String == message, sourceLocation: sourceLocation)
    }

    static func notFound(_ reply: APIReply, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expectError(reply, 404, 4_040_010, "Transaction id not found.", sourceLocation: sourceLocation)
    }

    static func noAppTransaction(_ reply: APIReply, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expectError(reply, 404, 4_040_019, "No AppTransaction exists for the customer.", sourceLocation: sourceLocation)
    }

    @Test(arguments: TestDatabase.backends)
    func postedAppTransactionIsServedByItsIdAndByItsCustomers(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await APISession.with(database) { api in
            // The customer's transactions carry the appTransactionId Apple signed into them.
            for (id, original) in [(Self.original, Self.original), (Self.renewal, Self.original)] {
                _ = try await api.post(
                    "/inApps/v1/transactions", S.posted(Self.transaction(id, original: original, appTransactionID: Self.appTransactionID))
                ).ok()
            }
            // A customer known before their app transaction is: 4040019; the app transaction's own id: 4040010.
            try Self.noAppTransaction(try await Self.info(api, Self.original))
            try Self.notFound(try await Self.info(api, Self.appTransactionID))

            let token = Self.appTransaction(signed: APISession.now - 60_000)
            let reply = try await Self.post(api, token)
            #expect((try reply.ok()["data"] as? [Any])?.isEmpty == true)
            #expect(try await Self.served(api, Self.appTransactionID) == token)
            #expect(try await Self.served(api, Self.original) == token)
            #expect(try await Self.served(api, Self.renewal) == token)

            // A customer whose transactions carry no appTransactionId, and one carrying another app
            // transaction's id that is not stored: 4040019. An unknown id: 4040010. Not an id: 4000006.
            _ = try await api.post("/inApps/v1/transactions", S.posted(Self.transaction("5300000101", original: "5300000101", appTransactionID: nil)))
                .ok()
            _ = try await api.post(
                "/inApps/v1/transactions", S.posted(Self.transaction("5300000201", original: "5300000201", appTransactionID: "704000000000000999"))
            ).ok()
            try Self.noAppTransaction(try await Self.info(api, "5300000101"))
            try Self.noAppTransaction(try await Self.info(api, "5300000201"))
            try Self.notFound(try await Self.info(api, "9999999999"))
            for bad in ["abc", "12a4", String(repeating: "1", count: 33), "-1"] {
                try Self.expectError(try await Self.info(api, bad), 400, 4_000_006, "Invalid transaction id.")
            }

            // The sandbox holds nothing of production's; its own app transaction (same id) is its own.
            try Self.notFound(try await Self.info(api, Self.appTransactionID, sandbox: true))
            try Self.notFound(try await Self.info(api, Self.original, sandbox: true))
            let sandboxToken = Self.appTransaction(environment: "Sandbox", signed: APISession.now - 30_000)
            try await PostedTransactionTests.expectBadRequest(try await Self.post(api, sandboxToken))
            _ = try await Self.post(api, sandboxToken, sandbox: true).ok()
            #expect(try await Self.served(api, Self.appTransactionID, sandbox: true) == sandboxToken)
            #expect(try await Self.served(api, Self.appTransactionID) == token)
            #expect(try await InspectAppTransactions.rows(database).map(\.environment) == ["Production", "Sandbox"])
        }
    }

    @Test(arguments: TestDatabase.backends)
    func oneRowPerAppTransactionAndNothingForged(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await APISession.with(database) { api in
            let signed = APISession.now - 120_000
            let first = Self.appTransaction(signed: signed)
            _ = try await Self.post(api, first).ok()
            _ = try await Self.post(api, first).ok()
            #expect(try await InspectAppTransactions.rows(database).map(\.jws) == [first])
            // A later signing replaces it; an earlier one arriving after it does not.
            let later = Self.appTransaction(signed: signed + 60_000)
            _ = try await Self.post(api, later).ok()
            _ = try await Self.post(api, first).ok()
            #expect(try await InspectAppTransactions.rows(database).map(\.jws) == [later])
            #expect(try await Self.served(api, Self.appTransactionID) == later)

            // Signed under another root: refused, nothing stored.
            let stranger = TestJWSChain(rootName: "Not The Configured Root")
            let payload = try JSONSerialization.data(
                withJSONObject: S.payload(Self.appTransaction(id: "704000000000000002", signed: signed)), options: [.sortedKeys])
            let forged = stranger.token(payload: String(decoding: payload, as: UTF8.self), x5c: stranger.certificates)
            try await PostedTransactionTests.expectBadRequest(try await Self.post(api, forged))
            try Self.notFound(try await Self.info(api, "704000000000000002"))
            // Another app's, and one without an appTransactionId (before 2025): nothing stored either.
            try await PostedTransactionTests.expectBadRequest(
                try await Self.post(api, Self.appTransaction(id: "704000000000000003", signed: signed, bundleID: "com.example.other")))
            _ = try await Self.post(api, Self.appTransaction(id: nil, signed: signed)).ok()
            #expect(try await InspectAppTransactions.rows(database).map(\.jws) == [later])
        }
    }

    @Test(arguments: TestDatabase.backends)
    func rescindConsentStoresItsAppTransaction(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await APISession.with(database) { api in
            let inner = NestedAppTransactionTests.appTransaction(N.chain, x5c: N.x5c)
            try await api.notify(NestedAppTransactionTests.rescind(inner))
            #expect(try await Self.served(api, "704000000000000001") == inner)
            // A customer whose transaction carries that id reaches it too.
            _ = try await api.post(
                "/inApps/v1/transactions", S.posted(Self.transaction(Self.original, original: Self.original, appTransactionID: "704000000000000001"))
            ).ok()
            #expect(try await Self.served(api, Self.original) == inner)

            // An app transaction of another app inside a genuine notification: 403, nothing stored.
            let other = Self.appTransaction(id: "704000000000000007", signed: NestedAppTransactionTests.signed, bundleID: "com.example.other")
            #expect(try await api.client.notify(token: NestedAppTransactionTests.rescind(other)) == 403)
            try Self.notFound(try await Self.info(api, "704000000000000007"))
            #expect(try await InspectAppTransactions.rows(database).map(\.appTransactionID) == ["704000000000000001"])
        }
    }
}
