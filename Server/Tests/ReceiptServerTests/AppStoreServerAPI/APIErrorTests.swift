import Foundation
import Testing

/// Apple's error answers, byte for byte, with `Content-Type: application/json` exactly; 401 with an
/// empty body for any authentication failure; 429 4290000 with `Retry-After` past the key's rate.
@Suite struct APIErrorTests {
    typealias N = SyntheticNotifications
    typealias S = SignedAPIData
    static let id = "6100000001"

    /// A request and the error it must get.
    struct Case: Sendable {
        let method: String
        let path: String
        var body: [String: any Sendable]? = nil
        let status: Int
        let code: Int
        let message: String
    }

    static let invalidID = "Invalid transaction id."
    static let cases: [Case] = {
        var cases: [Case] = []
        let window: [String: any Sendable] = ["startDate": 1_700_000_000_000, "endDate": 1_700_000_100_000]
        for path in [
            "/inApps/v1/subscriptions/", "/inApps/v1/transactions/", "/inApps/v2/history/", "/inApps/v1/history/", "/inApps/v2/refund/lookup/",
        ] {
            cases.append(Case(method: "GET", path: path + "12ab45", status: 400, code: 4_000_006, message: invalidID))
            cases.append(Case(method: "GET", path: path + String(repeating: "1", count: 33), status: 400, code: 4_000_006, message: invalidID))
            cases.append(Case(method: "GET", path: path + "6199999999", status: 404, code: 4_040_010, message: "Transaction id not found."))
        }
        let history = "/inApps/v2/history/\(id)"
        cases += [
            Case(method: "GET", path: history + "?revision=bm90IGEgdG9rZW4", status: 400, code: 4_000_005, message: "Invalid request revision."),
            Case(
                method: "GET", path: "/inApps/v2/refund/lookup/\(id)?revision=%21%21", status: 400, code: 4_000_005,
                message: "Invalid request revision."),
            Case(
                method: "GET", path: history + "?startDate=1700000100000&endDate=1700000000000", status: 400, code: 4_000_013,
                message: "Invalid request. The end date precedes the start date or the dates are the same."),
            Case(
                method: "GET", path: history + "?startDate=1700000000000&endDate=1700000000000", status: 400, code: 4_000_013,
                message: "Invalid request. The end date precedes the start date or the dates are the same."),
            Case(
                method: "GET", path: history + "?startDate=yesterday", status: 400, code: 4_000_015,
                message: "Invalid request. The start date is not a timestamp value represented in milliseconds."),
            Case(
                method: "GET", path: history + "?endDate=1.5", status: 400, code: 4_000_016,
                message: "Invalid request. The end date is not a timestamp value represented in milliseconds."),
            Case(method: "GET", path: history + "?sort=UP", status: 400, code: 4_000_021, message: "Invalid request. The sort parameter is invalid."),
            Case(
                method: "GET", path: history + "?productType=SUBSCRIPTION", status: 400, code: 4_000_022,
                message: "Invalid request. The product type parameter is invalid."),
            Case(
                method: "GET", path: history + "?inAppOwnershipType=SHARED", status: 400, code: 4_000_026,
                message: "Invalid request. The in-app ownership type parameter is invalid."),
            Case(
                method: "GET", path: history + "?revoked=maybe", status: 400, code: 4_000_030,
                message: "Invalid request. The revoked parameter is invalid."),
            Case(
                method: "GET", path: "/inApps/v1/subscriptions/\(id)?status=6", status: 400, code: 4_000_031,
                message: "Invalid request. The status parameter is invalid."),
            Case(
                method: "GET", path: "/inApps/v1/subscriptions/\(id)?status=1&status=active", status: 400, code: 4_000_031,
                message: "Invalid request. The status parameter is invalid."),
            Case(
                method: "POST", path: "/inApps/v1/notifications/history?paginationToken=xyz", body: window, status: 400, code: 4_000_014,
                message: "Invalid request. The pagination token is invalid."),
            Case(
                method: "POST", path: "/inApps/v1/notifications/history", body: ["startDate": 1_700_000_100_000, "endDate": 1_700_000_000_000],
                status: 400, code: 4_000_013, message: "Invalid request. The end date precedes the start date or the dates are the same."),
            Case(
                method: "POST", path: "/inApps/v1/notifications/history", body: ["startDate": "1700000000000", "endDate": 1_700_000_100_000],
                status: 400, code: 4_000_015, message: "Invalid request. The start date is not a timestamp value represented in milliseconds."),
            Case(
                method: "POST", path: "/inApps/v1/notifications/history", body: ["startDate": 1_700_000_000_000], status: 400, code: 4_000_016,
                message: "Invalid request. The end date is not a timestamp value represented in milliseconds."),
            Case(
                method: "POST", path: "/inApps/v1/notifications/history", body: window.merging(["notificationType": "RENEWED"]) { $1 },
                status: 400, code: 4_000_018, message: "Invalid request. The notification type or subtype is invalid."),
            Case(
                method: "POST", path: "/inApps/v1/notifications/history", body: window.merging(["notificationSubtype": "SOMETIMES"]) { $1 },
                status: 400, code: 4_000_018, message: "Invalid request. The notification type or subtype is invalid."),
            Case(
                method: "POST", path: "/inApps/v1/notifications/history",
                body: window.merging(["notificationType": "DID_RENEW", "transactionId": id]) { $1 }, status: 400, code: 4_000_019,
                message: "Invalid request. Supply either a transaction id or a notification type, but not both."),
            Case(
                method: "POST", path: "/inApps/v1/notifications/history", body: window.merging(["transactionId": "abc"]) { $1 }, status: 400,
                code: 4_000_006, message: invalidID),
        ]
        return cases
    }()

    @Test(arguments: TestDatabase.backends)
    func everyErrorIsApplesBody(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let now = APISession.now
        try await APISession.with(database) { api in
            // A stored customer, so that only the parameter is wrong.
            let token = S.transaction(
                N.Transaction(
                    transactionId: Self.id, originalTransactionId: Self.id, purchaseDate: now - S.day, expiresDate: now + 29 * S.day,
                    signedDate: now - 60_000))
            _ = try await api.post("/inApps/v1/transactions", S.posted(token)).ok()
            for sandbox in [false, true] {
                for error in Self.cases {
                    let reply: APIReply
                    if let body = error.body {
                        reply = try await api.post(error.path, try JSONSerialization.data(withJSONObject: body), sandbox: sandbox)
                    } else {
                        reply = try await api.get(error.path, sandbox: sandbox)
                    }
                    let expected = #"{"errorCode":\#(error.code),"errorMessage":"\#(error.message)"}"#
                    // At the sandbox prefix the production customer is not found: 404 where the parameters are valid.
                    let status = sandbox && error.code == 4_040_010 ? 404 : error.status
                    #expect(
                        reply.status == status && reply.text == expected, "\(sandbox ? "/sandbox" : "")\(error.path): \(reply.status) \(reply.text)")
                    #expect(reply.contentType == "application/json", "\(error.path)")
                }
            }
            // The stored customer is production data only.
            #expect(try await api.get("/inApps/v1/subscriptions/\(Self.id)").status == 200)
            let sandbox = try await api.get("/inApps/v1/subscriptions/\(Self.id)", sandbox: true)
            #expect(sandbox.status == 404 && sandbox.text == #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#)
        }
    }

    @Test(arguments: TestDatabase.backends)
    func authenticationFailuresAreEmpty401s(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await APISession.with(database) { api in
            let garbage = ["", "Bearer", "Bearer ", "Bearer abc.def.ghi", "Basic dXNlcjpwYXNz", "Bearer " + String(repeating: "A", count: 5000)]
            for path in ["/inApps/v1/subscriptions/\(Self.id)", "/inApps/v2/history/\(Self.id)", "/inApps/v1/transactions/x"] {
                for header in garbage {
                    let reply = try await api.get(path, authorization: header)
                    #expect(reply.status == 401 && reply.body.isEmpty, "\(path) with \(header.prefix(20)): \(reply.status) \(reply.text)")
                }
                // No Authorization header at all.
                let bare = try await api.client.execute(uri: path, method: .get) { response in
                    (Int(response.status.code), response.body.readableBytes)
                }
                #expect(bare == (401, 0))
            }
            // A token of a key the server does not know: 401 before any lookup.
            let stranger = APIJWTSigner()
            let reply = try await api.get("/inApps/v1/subscriptions/\(Self.id)", authorization: "Bearer " + (try stranger.token(now: APISession.now)))
            #expect(reply.status == 401 && reply.body.isEmpty)
            let posted = try await api.post(
                "/inApps/v1/transactions", Data("{}".utf8), authorization: "Bearer " + (try stranger.token(now: APISession.now)))
            #expect(posted.status == 401 && posted.body.isEmpty)
        }
    }

    @Test(arguments: TestDatabase.backends)
    func keyRateLimitIsApples429(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await APISession.with(
            database,
            configure: { configuration in
                configuration.keyRate = 0.01
                configuration.keyBurst = 2
            }
        ) { api in
            let path = "/inApps/v1/subscriptions/\(Self.id)"
            #expect(try await api.get(path).status == 404)
            #expect(try await api.get(path).status == 404)
            let limited = try await api.get(path)
            #expect(limited.status == 429 && limited.text == #"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#, "\(limited.text)")
            #expect(limited.contentType == "application/json")
            let retryAfter = try #require(limited.retryAfter.flatMap(Int.init), "Retry-After: \(limited.retryAfter ?? "none")")
            #expect(retryAfter >= 1 && retryAfter <= 101)
        }
    }
}
