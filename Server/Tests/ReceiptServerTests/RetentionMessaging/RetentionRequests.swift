import Foundation
import HummingbirdTesting
import NIOCore
import ReceiptServer
@testable import receipt_server
import ReceiptTestSupport

/// Get Retention Message requests (`DecodedRealtimeRequestBody`) signed by the synthetic G3-shaped
/// chain of `SyntheticNotifications` (trusted through `--root-g3`). Never trust what this signs.
enum RetentionRequests {
    static let messageID = "3db5c98d-8acf-4e29-831e-8e1f82f9f6e9"
    static let otherMessageID = "8f1e4c1a-2b3d-4e5f-8a9b-0c1d2e3f4a5b"
    /// The customer's data in every request: it must never reach a log line.
    static let originalTransactionId = "4300000777"
    static let userLocale = "fr-CA"

    /// Now, in milliseconds since 1970.
    static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// The signed request; `signedDate` nil: now.
    static func token(environment: String = "Production", appAppleId: Int64 = 1_234_567_890, signedDate: Int64? = nil) -> String {
        SyntheticNotifications.sign([
            "originalTransactionId": originalTransactionId, "appAppleId": appAppleId, "productId": "com.example.receipts.monthly",
            "userLocale": userLocale, "requestIdentifier": UUID().uuidString.lowercased(), "environment": environment,
            "signedDate": signedDate ?? now,
        ])
    }

    /// A configuration trusting the synthetic G3 root, with `--retention-message` values.
    static func configuration(_ database: TestDatabase, apps: [String] = [], messages: [String] = []) -> ServerConfiguration {
        var configuration = SyntheticNotifications.configuration(database, apps: apps)
        configuration.retentionMessages = messages
        return configuration
    }
}

/// An answer of the Get Retention Message endpoint.
struct RetentionReply {
    let status: Int
    let contentType: String?
    let text: String
    var json: [String: Any] { (try? JSONAnswer.object(Data(text.utf8))) ?? [:] }
}

extension TestClientProtocol {
    /// POSTs `body` to the Get Retention Message endpoint of `bundleID`.
    func retention(_ body: Data, bundleID: String = Synthetic.bundleID, sandbox: Bool = false) async throws -> RetentionReply {
        try await execute(
            uri: (sandbox ? "/sandbox" : "") + "/retention/v1/realtime/" + bundleID, method: .post,
            headers: [.contentType: "application/json"], body: ByteBuffer(bytes: body)
        ) { response in
            RetentionReply(
                status: Int(response.status.code), contentType: response.headers[.contentType],
                text: String(buffer: response.body))
        }
    }

    /// POSTs a token as `{"signedPayload": token}`.
    func retention(token: String, bundleID: String = Synthetic.bundleID, sandbox: Bool = false) async throws -> RetentionReply {
        try await retention(SyntheticNotifications.body(token), bundleID: bundleID, sandbox: sandbox)
    }
}
