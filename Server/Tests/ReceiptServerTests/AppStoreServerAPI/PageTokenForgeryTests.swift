import Foundation
import Testing

@testable import ReceiptService

/// Paging tokens this server never wrote are refused (issue 33): history and refund `revision`
/// 4000005, notification-history `paginationToken` 4000014. A token must be the canonical
/// base64url of `KIND:MILLISECONDS:ID` with the kind asked for, a time of years 1970 to 9999 in
/// canonical decimal and the id of an item of that kind, or the start and end points an empty
/// page answers.
@Suite struct PageTokenForgeryTests {
    /// `text` as a token's base64url.
    static func token(_ text: String) -> String {
        APIJWTSigner.base64URL(Data(text.utf8))
    }

    static let uuid = "6f2c1f2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b"

    /// Never issued as a token of kind `k` (`h` or `r`): the review's three, then every part wrong
    /// in turn.
    static func forged(_ k: String) -> [String] {
        let other = k == "h" ? "r" : "h"
        return [
            "\(k):+5:1", "\(k):0:1' OR 1=1--",
            "\(k):05:1", "\(k):-5:1", "\(k):-0:1", "\(k): 5:1", "\(k):5:", "\(k):5:1a", "\(k):5:-1", "\(k):5:+1", "\(k)::1", "\(k):5",
            "\(k)", "\(other):5:1", "n:5:\(uuid)", "x:5:1", "\(k):253402300800000:1", "\(k):9223372036854775807:1",
            "\(k):9223372036854775808:1", "\(k):-9223372036854775808:1", "\(k):5:" + String(repeating: "1", count: 33), "\(k):5:1:2",
            "\(k):5:1\n", "\(k):1e3:1",
        ].map(token) + [
            String(token("\(k):5:1").dropLast()) + "F",   // the unused low bits of the last character set: not canonical
            token("\(k):5:1") + "=", token("\(k):5:1") + ".", token("\(k):5:1") + "A", "",
        ]
    }

    @Test func everyPartOfAHistoryOrRefundRevisionIsChecked() {
        #expect(Self.token("h:5:1") == "aDo1OjE" && Self.token("r:5:1") == "cjo1OjE")   // so that "…F" is the same bytes
        for text in Self.forged("h") {
            #expect(PageToken(text, .history) == nil, "\(text)")
            #expect(Self.error { _ = try HistoryRequest(query: [(name: "revision", value: text)]) } == 4_000_005, "\(text)")
        }
        for text in Self.forged("r") {
            #expect(Self.error { _ = try PageToken.revision(in: [(name: "revision", value: text)], .refunds) } == 4_000_005, "\(text)")
        }
        // What the server writes reads back: a time and a transaction id, and the start and end
        // an empty page answers (so the review's third example, `h:-9223372036854775808:`, is one
        // of the server's own tokens: it names the start and grants nothing).
        #expect(PageToken(Self.token("h:5:1"), .history) == PageToken(milliseconds: 5, id: "1"))
        #expect(PageToken(Self.token("h:253402300799999:2000000000000001"), .history) != nil)
        #expect(PageToken(Self.token("h:-9223372036854775808:"), .history) == .start)
        #expect(PageToken(Self.token("r:9223372036854775807:"), .refunds) == .end)
        for kind in [PageToken.Kind.history, .refunds, .notifications] {
            for point in [PageToken.start, .end] { #expect(PageToken(point.encoded(kind), kind) == point) }
        }
    }

    @Test func notificationTokensNameAUUID() throws {
        let window = Data(#"{"startDate": 1, "endDate": 2}"#.utf8)
        for text in [
            Self.token("n:5:1"), Self.token("n:5:"), Self.token("n:5:\(Self.uuid)x"), Self.token("n:5:{\(Self.uuid)}"),
            Self.token("n:5:" + Self.uuid.replacingOccurrences(of: "-", with: "")), Self.token("n:+5:\(Self.uuid)"),
            Self.token("h:5:\(Self.uuid)"), Self.token("n:5:1' OR 1=1--"), "garbage!",
        ] {
            #expect(Self.error { _ = try NotificationHistoryRequest(body: window, paginationToken: text) } == 4_000_014, "\(text)")
        }
        let token = PageToken(milliseconds: 1_704_103_200_000, id: Self.uuid)
        #expect(try NotificationHistoryRequest(body: window, paginationToken: token.encoded(.notifications)).cursor == token)
        let upper = PageToken(milliseconds: 5, id: Self.uuid.uppercased())   // stored as Apple signed it
        #expect(PageToken(upper.encoded(.notifications), .notifications) == upper)
    }

    /// The error code `body` throws, or nil.
    static func error(_ body: () throws -> Void) -> Int64? {
        do {
            try body()
            return nil
        } catch {
            return (error as? AppStoreAPIError)?.code ?? -1
        }
    }

    /// Over HTTP on both backends: Apple's error bodies for forged tokens at history (v1, v2),
    /// refunds and notification history; an empty page's revision is taken back.
    @Test(arguments: TestDatabase.backends)
    func forgedTokensGetApplesErrors(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let now = APISession.now
        try await APISession.with(database) { api in
            let id = "6400000001"
            let purchase = SignedAPIData.purchase(id, type: "Consumable", product: "com.example.coins", purchased: now - 60_000, signed: now - 60_000)
            _ = try await api.post("/inApps/v1/transactions", SignedAPIData.posted(purchase)).ok()
            let revision = #"{"errorCode":4000005,"errorMessage":"Invalid request revision."}"#
            let pagination = #"{"errorCode":4000014,"errorMessage":"Invalid request. The pagination token is invalid."}"#
            for text in [Self.token("h:+5:1"), Self.token("h:0:1' OR 1=1--"), Self.token("h:5:"), "aDo1OjF", Self.token("r:5:1")] {
                let query = APISession.appending("", "revision", text)
                for path in ["/inApps/v2/history/\(id)", "/inApps/v1/history/\(id)"] {
                    let reply = try await api.get(path + query)
                    #expect(reply.status == 400 && reply.text == revision && reply.contentType == "application/json", "\(path) \(text)")
                }
            }
            for text in [Self.token("r:+5:1"), Self.token("r:5:"), Self.token("h:5:1")] {
                let reply = try await api.get("/inApps/v2/refund/lookup/\(id)" + APISession.appending("", "revision", text))
                #expect(reply.status == 400 && reply.text == revision, "\(text)")
            }
            let window: [String: Any] = ["startDate": now - 86_400_000, "endDate": now + 60_000]
            for text in [Self.token("n:+5:\(Self.uuid)"), Self.token("n:5:1"), Self.token("h:5:1")] {
                let path = "/inApps/v1/notifications/history" + APISession.appending("", "paginationToken", text)
                let reply = try await api.post(path, try JSONSerialization.data(withJSONObject: window))
                #expect(reply.status == 400 && reply.text == pagination, "\(text)")
            }
            // An empty page answers the start, which is taken back.
            let empty = try await api.history(id, "?productId=none")
            #expect(empty["revision"] as? String == Self.token("h:-9223372036854775808:"))
            #expect(try await api.history(id, "?productId=none&revision=" + (empty["revision"] as? String ?? ""))["hasMore"] as? Bool == false)
            // A real page's revision is taken back.
            let page = try await api.history(id)
            #expect(
                try await api.history(id, APISession.appending("", "revision", page["revision"] as? String ?? ""))["signedTransactions"] as? [String]
                    == [])
        }
    }
}
