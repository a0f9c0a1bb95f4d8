import Foundation
import ReceiptStore
import ReceiptTestSupport
import Testing

/// The Get Retention Message endpoint's answers for an authentic, fresh request: the app's
/// configured `message` or `alternateProduct` (200, exactly one of Apple's options), and 404 when
/// none is configured, so that Apple shows its default message.
@Suite struct RetentionAnswerTests {
    static let app = Synthetic.bundleID

    @Test func configuredMessageIsAnswered() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let messages = ["\(Self.app)=\(RetentionRequests.messageID.uppercased())"]
        try await TestServer.with(RetentionRequests.configuration(database, messages: messages)) { client in
            let reply = try await client.retention(token: RetentionRequests.token())
            #expect(reply.status == 200)
            #expect(reply.contentType == "application/json")
            #expect(reply.text == #"{"message":{"messageIdentifier":"\#(RetentionRequests.messageID)"}}"#)
            let sandbox = try await client.retention(token: RetentionRequests.token(environment: "Sandbox"), sandbox: true)
            #expect(sandbox.status == 200 && sandbox.text == reply.text)
        }
        // Nothing is stored.
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 0, transactions: 0, notifications: 0))
    }

    @Test func productIdMakesAnAlternateProduct() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let messages = [
            "\(Self.app)=\(RetentionRequests.messageID):com.example.receipts.yearly", "com.example.other=\(RetentionRequests.otherMessageID)",
        ]
        try await TestServer.with(RetentionRequests.configuration(database, messages: messages)) { client in
            let reply = try await client.retention(token: RetentionRequests.token())
            #expect(reply.status == 200)
            #expect(
                reply.text
                    == #"{"alternateProduct":{"messageIdentifier":"\#(RetentionRequests.messageID)","productId":"com.example.receipts.yearly"}}"#)
            // Each app its own message.
            let other = try await client.retention(token: RetentionRequests.token(), bundleID: "com.example.other")
            #expect(other.text == #"{"message":{"messageIdentifier":"\#(RetentionRequests.otherMessageID)"}}"#)
        }
    }

    /// No message for the app: 404 with a reason. Apple: "If your server response fails for any
    /// reason, the system displays a default retention message".
    @Test func noMessageConfiguredIs404() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let messages = ["com.example.other=\(RetentionRequests.messageID)"]
        try await TestServer.with(RetentionRequests.configuration(database, messages: messages)) { client in
            let reply = try await client.retention(token: RetentionRequests.token())
            #expect(reply.status == 404)
            #expect(reply.contentType == "application/json")
            let reason = try #require(reply.json["error"] as? String)
            #expect(reason.contains("no retention message is configured for \(Self.app)"))
        }
        try await TestServer.with(RetentionRequests.configuration(database)) { client in
            let answered1 = try await client.retention(token: RetentionRequests.token())
            #expect(answered1.status == 404)
        }
    }
}
