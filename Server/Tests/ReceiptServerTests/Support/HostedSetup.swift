import Foundation
import HummingbirdTesting
import NIOCore
import ReceiptService
import ReceiptStore
import ReceiptTestSupport

/// API keys and apps made in a test database before the server starts, as
/// `receipt-server apikey create` / `app add` make them (through the same `CredentialAdmin`).
struct HostedSetup: Sendable {
    let database: TestDatabase
    /// The key for every app, and a key restricted to `otherBundleID`.
    let key: String
    let otherKey: String
    /// A revoked key (for every app).
    let revokedKey: String
    /// Tokens of the synthetic receipts' app (with an encryption key) and of another app (without one).
    let token: String
    let otherToken: String
    let encryptionKey: [UInt8]

    static let otherBundleID = "com.example.other"

    static func make(_ backend: TestDatabase.Backend) async throws -> HostedSetup {
        let database = try await TestDatabase.make(backend)
        return try await Stores.with(DatabaseLocation(database.url), secrets: TestSecrets.key, logger: TestServer.logger) { store in
            let admin = CredentialAdmin(store: store, secrets: TestSecrets.key)
            let app = try await admin.addApp(Synthetic.bundleID, sharedSecret: "s3cret", appleID: nil, encryptionKey: true)
            let other = try await admin.addApp(otherBundleID, sharedSecret: nil, appleID: nil, encryptionKey: false)
            let key = try await admin.createKey(apps: nil).key
            let otherKey = try await admin.createKey(apps: [otherBundleID]).key
            let revoked = try await admin.createKey(apps: nil).key
            _ = try await admin.revokeKey(revoked)
            return HostedSetup(
                database: database, key: key, otherKey: otherKey, revokedKey: revoked, token: app.token,
                otherToken: other.token, encryptionKey: app.encryptionKey!)
        }
    }

    /// A form body, the way the reference's sample code builds it: the base64 is not escaped.
    static func form(apiKey: String?, token: String?, receipt: [UInt8]?) -> Data {
        var fields: [String] = []
        if let apiKey { fields.append("apikey=" + apiKey) }
        if let token { fields.append("token=" + token) }
        if let receipt { fields.append("receipt=" + Data(receipt).base64EncodedString()) }
        return Data(fields.joined(separator: "&").utf8)
    }

    static func json(apiKey: String?, token: String?, receipt: [UInt8]?) -> Data {
        var object: [String: Any] = [:]
        if let apiKey { object["apikey"] = apiKey }
        if let token { object["token"] = token }
        if let receipt { object["receipt"] = Data(receipt).base64EncodedString() }
        return try! JSONSerialization.data(withJSONObject: object)
    }
}

/// A hosted-validator answer: HTTP status, parsed body, and the `Retry-After` header.
struct HostedReply: @unchecked Sendable {
    let code: Int
    let object: [String: Any]
    let text: String
    let retryAfter: String?

    var status: Int? { object["status"] as? Int }
    var description: String? { object["description"] as? String }
}

extension TestClientProtocol {
    func hosted(_ body: Data, encrypted: Bool = false, contentType: String = "application/x-www-form-urlencoded") async throws -> HostedReply {
        try await execute(
            uri: encrypted ? "/v1/receipt/encrypted" : "/v1/receipt", method: .post,
            headers: [.contentType: contentType], body: ByteBuffer(bytes: body)
        ) { response in
            let data = Data(response.body.readableBytesView)
            return HostedReply(
                code: Int(response.status.code), object: try JSONAnswer.object(data),
                text: String(decoding: data, as: UTF8.self), retryAfter: response.headers[.retryAfter])
        }
    }
}

/// The `verifyReceipt` answer without its request dates, which differ from one answer to the next.
func withoutRequestDates(_ answer: [String: Any]) -> [String: Any] {
    var answer = answer
    if var receipt = answer["receipt"] as? [String: Any] {
        for key in ["request_date", "request_date_ms", "request_date_pst"] { receipt[key] = nil }
        answer["receipt"] = receipt
    }
    return answer
}

/// Two JSON values compared as values (serialised with sorted keys).
func sameJSON(_ a: Any, _ b: Any) -> Bool {
    let options: JSONSerialization.WritingOptions = [.sortedKeys]
    guard let x = try? JSONSerialization.data(withJSONObject: a, options: options),
        let y = try? JSONSerialization.data(withJSONObject: b, options: options)
    else { return false }
    return x == y
}

/// A hosted answer read as the `verifyReceipt` answer it holds: the same members without
/// `description` (the reference's shape puts them all at the top level).
func verifyReceiptShape(_ hosted: [String: Any]) -> [String: Any] {
    var answer = hosted
    answer["description"] = nil
    return answer
}
