import Foundation
import Testing

@testable import ReceiptService

/// Posted bodies are read as strictly as the notification endpoint's and the bearer token
/// (issue 33): a member named twice, or a name written with escapes, is 400 4000000
/// (`Bad request.`) instead of one of its values being taken.
@Suite struct PostedBodyDuplicateTests {
    /// The 4000000 message of a posted transaction body, or nil when it is taken.
    static func refusal(_ json: String) -> String? {
        do {
            _ = try PostedToken(body: Data(json.utf8))
            return nil
        } catch { return error.code == 4_000_000 ? error.message : "code \(error.code)" }
    }

    @Test func postedTransactionBodyNamesEachMemberOnce() {
        #expect(
            Self.refusal(#"{"signedTransactionInfo": "a.b.c", "signedTransactionInfo": "d.e.f"}"#)
                == #"Bad request. The body is not strict JSON (offset 36: duplicate member name "signedTransactionInfo")."#)
        #expect(Self.refusal(#"{"signedAppTransaction": "a.b.c", "signedAppTransaction": null}"#)?.contains("duplicate member name") == true)
        #expect(Self.refusal(#"{"signedTransactionInfo": "a.b.c", "other": {"k": 1, "k": 2}}"#)?.contains(#"duplicate member name "k""#) == true)
        #expect(Self.refusal(#"{"signed\u0054ransactionInfo": "a.b.c"}"#)?.contains("member name with an escape") == true)
        #expect(Self.refusal(#"{"signedTransactionInfo": "a.b.c", "other": 1}"#) == nil)
    }

    @Test func notificationHistoryBodyNamesEachMemberOnce() {
        func code(_ json: String) -> Int64? {
            do {
                _ = try NotificationHistoryRequest(body: Data(json.utf8), paginationToken: nil)
                return nil
            } catch { return error.code }
        }
        #expect(code(#"{"startDate": 1, "endDate": 2, "startDate": 0}"#) == 4_000_000)
        #expect(code(#"{"startDate": 1, "endDate": 2, "notificationType": "TEST", "notificationType": "DID_RENEW"}"#) == 4_000_000)
        #expect(code(#"{"startDate": 1, "endDate": 2}"#) == nil)
    }

    /// Over HTTP on both backends: a body naming a genuine transaction first and another second is
    /// refused with Apple's error body, and nothing of it is stored.
    @Test(arguments: TestDatabase.backends)
    func duplicatedMemberIsRefusedAndNotStored(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let now = APISession.now
        try await APISession.with(database) { api in
            let first = SignedAPIData.purchase(
                "6500000001", type: "Consumable", product: "com.example.coins", purchased: now - 60_000, signed: now - 60_000)
            let second = SignedAPIData.purchase(
                "6500000002", type: "Consumable", product: "com.example.coins", purchased: now - 60_000, signed: now - 60_000)
            let body = #"{"signedTransactionInfo":"\#(first)","signedTransactionInfo":"\#(second)"}"#
            let reply = try await api.post("/inApps/v1/transactions", Data(body.utf8))
            #expect(reply.status == 400 && reply.contentType == "application/json")
            let json = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
            #expect(json?["errorCode"] as? Int == 4_000_000)
            #expect((json?["errorMessage"] as? String)?.contains(#"duplicate member name "signedTransactionInfo""#) == true)
            for id in ["6500000001", "6500000002"] { #expect(try await api.get("/inApps/v1/transactions/\(id)").status == 404) }
            let history = #"{"startDate":1,"endDate":\#(now + 60_000),"startDate":2}"#
            let refused = try await api.post("/inApps/v1/notifications/history", Data(history.utf8))
            #expect(refused.status == 400 && refused.text == #"{"errorCode":4000000,"errorMessage":"Bad request."}"#)
            // Each alone is taken.
            #expect(try await api.post("/inApps/v1/transactions", SignedAPIData.posted(first)).status == 200)
        }
    }
}
