import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ReceiptServer
@testable import receipt_server
import ReceiptStore

/// The App Store Server API as an app's backend calls it: a server trusting the synthetic G3
/// chain (`--root-g3`) with one In-App Purchase key registered in its store, requests signed with
/// that key (`APIJWTSigner`), and signed transactions, renewal infos and notifications whose
/// nested tokens the tests keep to compare byte for byte.
struct APISession: Sendable {
    let client: any TestClientProtocol
    let signer: APIJWTSigner
    var bundleID = Synthetic.bundleID

    /// Registers a new key in `database`'s store, starts the server (`configure` may change its
    /// configuration) and runs `body` with a session signing as that key.
    static func with<T: Sendable>(
        _ database: TestDatabase, configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (APISession) async throws -> T
    ) async throws -> T {
        let signer = APIJWTSigner()
        try await SignedDataFixtures.with(database) { store in try await store.putIAPKey(signer.record()) }
        var configuration = SyntheticNotifications.configuration(database)
        configure(&configuration)
        return try await TestServer.with(configuration) { client in try await body(APISession(client: client, signer: signer)) }
    }

    /// Milliseconds since 1970, now.
    static var now: Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// `Authorization: Bearer` with a fresh token of Apple's shape.
    func authorization() throws -> String {
        "Bearer " + (try signer.token(now: Self.now, bundleID: bundleID))
    }

    /// GETs `path` (with `/sandbox` in front when asked), signed.
    func get(_ path: String, sandbox: Bool = false, authorization: String? = nil) async throws -> APIReply {
        try await send(.get, path, sandbox: sandbox, body: nil, authorization: authorization)
    }

    /// POSTs `body` to `path`, signed.
    func post(_ path: String, _ body: Data, sandbox: Bool = false, authorization: String? = nil) async throws -> APIReply {
        try await send(.post, path, sandbox: sandbox, body: body, authorization: authorization)
    }

    /// POSTs a JSON object.
    func post(_ path: String, json: [String: Any], sandbox: Bool = false) async throws -> APIReply {
        try await post(path, try JSONSerialization.data(withJSONObject: json), sandbox: sandbox)
    }

    func send(_ method: HTTPRequest.Method, _ path: String, sandbox: Bool, body: Data?, authorization: String?) async throws -> APIReply {
        var headers: HTTPFields = [.authorization: try authorization ?? self.authorization()]
        if body != nil { headers[.contentType] = "application/json" }
        return try await client.execute(
            uri: (sandbox ? "/sandbox" : "") + path, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) }
        ) { response in
            APIReply(
                status: Int(response.status.code), body: Data(response.body.readableBytesView),
                contentType: response.headers[.contentType], retryAfter: response.headers[.retryAfter])
        }
    }

    /// Get All Subscription Statuses of `id` (HTTP 200 required).
    func statuses(_ id: String, query: String = "", sandbox: Bool = false) async throws -> StatusBody {
        try StatusBody(try await get("/inApps/v1/subscriptions/\(id)\(query)", sandbox: sandbox).ok())
    }

    /// Get Transaction History of `id` with `query` (`?…` or empty), v1 or v2 (HTTP 200 required).
    func history(_ id: String, _ query: String = "", version: String = "v2", sandbox: Bool = false) async throws -> [String: Any] {
        try await get("/inApps/\(version)/history/\(id)\(query)", sandbox: sandbox).ok()
    }

    /// Every token of the history of `id` with `query`, page after page (each at most 20).
    func allHistory(
        _ id: String, _ query: String = "", version: String = "v2", sandbox: Bool = false
    ) async throws -> (tokens: [String], revision: String) {
        var tokens: [String] = []
        var page = try await history(id, query, version: version, sandbox: sandbox)
        while true {
            let items = page["signedTransactions"] as? [String] ?? []
            guard items.count <= 20 else { throw UnexpectedAnswer(description: "a page of \(items.count)") }
            tokens += items
            let revision = page["revision"] as? String ?? ""
            guard page["hasMore"] as? Bool == true else { return (tokens, revision) }
            page = try await history(id, Self.appending(query, "revision", revision), version: version, sandbox: sandbox)
        }
    }

    /// `query` with one more parameter.
    static func appending(_ query: String, _ name: String, _ value: String) -> String {
        let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? value
        return (query.isEmpty ? "?" : query + "&") + name + "=" + encoded
    }

    /// Get Transaction Info's token of `id` (HTTP 200 required).
    func transactionInfo(_ id: String, sandbox: Bool = false) async throws -> String? {
        try await get("/inApps/v1/transactions/\(id)", sandbox: sandbox).ok()["signedTransactionInfo"] as? String
    }

    /// Posts a notification's `signedPayload` (HTTP 200 required).
    func notify(_ token: String, sandbox: Bool = false) async throws {
        let status = try await client.notify(token: token, sandbox: sandbox)
        guard status == 200 else { throw UnexpectedAnswer(description: "notification answered HTTP \(status)") }
        // History orders by the millisecond the server changed a transaction: one per notification.
        try await Task.sleep(for: .milliseconds(3))
    }
}

/// An App Store Server API answer.
struct APIReply: Sendable {
    let status: Int
    let body: Data
    let contentType: String?
    let retryAfter: String?

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The JSON object of an HTTP 200 answer.
    func ok() throws -> [String: Any] {
        guard status == 200 else { throw UnexpectedAnswer(description: "HTTP \(status): \(text)") }
        return try JSONAnswer.object(body)
    }
}

/// A `StatusResponse` read back.
struct StatusBody {
    /// One `lastTransactions` entry with its group.
    struct Item: Equatable, CustomStringConvertible {
        var group: String
        var original: String
        var status: Int
        var transaction: String
        var renewal: String?
        var description: String { "\(group)/\(original): \(status) \(transaction.suffix(12)) \(renewal?.suffix(12) ?? "-")" }
    }

    let json: [String: Any]
    let items: [Item]

    init(_ json: [String: Any]) throws {
        self.json = json
        guard let data = json["data"] as? [[String: Any]] else { throw UnexpectedAnswer(description: "no data in \(json)") }
        items = try data.flatMap { group -> [Item] in
            guard let id = group["subscriptionGroupIdentifier"] as? String, let last = group["lastTransactions"] as? [[String: Any]] else {
                throw UnexpectedAnswer(description: "bad group \(group)")
            }
            return try last.map { entry in
                guard let original = entry["originalTransactionId"] as? String, let status = entry["status"] as? Int,
                    let transaction = entry["signedTransactionInfo"] as? String
                else { throw UnexpectedAnswer(description: "bad entry \(entry)") }
                return Item(group: id, original: original, status: status, transaction: transaction, renewal: entry["signedRenewalInfo"] as? String)
            }
        }
    }
}

/// Signed transactions, renewal infos and notifications of the synthetic G3 chain, the nested
/// tokens returned so that answers can be compared with them.
enum SignedAPIData {
    typealias N = SyntheticNotifications
    static let day: Int64 = 86_400_000

    /// A signed transaction: `transaction`'s payload with `changes` (a nil value removes the member).
    static func transaction(_ transaction: N.Transaction, _ changes: [String: Any?] = [:]) -> String {
        N.sign(apply(changes, to: transaction.payload))
    }

    /// A one-time purchase (`Consumable` or `Non-Consumable`): no expiry and no group.
    static func purchase(
        _ id: String, type: String, product: String, purchased: Int64, signed: Int64, environment: String = "Production"
    ) -> String {
        transaction(
            N.Transaction(
                transactionId: id, originalTransactionId: id, productId: product, purchaseDate: purchased, expiresDate: 0,
                signedDate: signed, environment: environment),
            ["type": type, "expiresDate": nil, "subscriptionGroupIdentifier": nil, "transactionReason": "PURCHASE"])
    }

    /// A signed renewal info: `renewal`'s payload with `changes`.
    static func renewal(_ renewal: N.Renewal, _ changes: [String: Any?] = [:]) -> String {
        N.sign(apply(changes, to: renewal.payload))
    }

    /// A notification carrying already-signed tokens.
    static func notification(
        _ type: String, subtype: String? = nil, uuid: String = UUID().uuidString.lowercased(), signedDate: Int64, transaction: String?,
        renewal: String? = nil, environment: String = "Production"
    ) -> String {
        var data: [String: Any] = ["bundleId": Synthetic.bundleID, "environment": environment, "bundleVersion": "42"]
        data["signedTransactionInfo"] = transaction
        data["signedRenewalInfo"] = renewal
        var payload: [String: Any] = ["notificationType": type, "notificationUUID": uuid, "version": "2.0", "signedDate": signedDate, "data": data]
        payload["subtype"] = subtype
        return N.sign(payload)
    }

    /// The body of `POST /inApps/v1/transactions`.
    static func posted(_ token: String) -> Data {
        try! JSONSerialization.data(withJSONObject: ["signedTransactionInfo": token])
    }

    static func apply(_ changes: [String: Any?], to payload: [String: Any]) -> [String: Any] {
        var payload = payload
        for (key, value) in changes {
            if let value { payload[key] = value } else { payload.removeValue(forKey: key) }
        }
        return payload
    }

    /// The payload of a compact JWS, read without verification.
    static func payload(_ token: String) -> [String: Any] {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return [:] }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    /// The `transactionId`s of tokens, in order.
    static func ids(_ tokens: [String]) -> [String] {
        tokens.map { payload($0)["transactionId"] as? String ?? "?" }
    }
}
