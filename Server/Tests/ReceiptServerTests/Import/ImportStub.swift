import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization

/// A tiny App Store Server API on loopback that answers what a test scripts, for the faults a
/// real Apple would answer and a second receipt-server does not (429, 5xx, stalls, hostile
/// bodies). The main path of the import is tested against a real receipt-server instead.
final class ImportStub: Sendable {
    /// One scripted answer.
    enum Answer: Sendable {
        /// HTTP `status` with `headers` and `body`.
        case reply(status: HTTPResponse.Status, headers: [String: String] = [:], body: String)
        /// 200 with a body that never ends (`chunked`, or with a declared `Content-Length`), 64 KiB
        /// at a time, 1 GiB at most.
        case endless(declaredLength: Int?)
        /// No answer for `seconds`.
        case stall(seconds: Int)
    }

    /// The answer of an endpoint (`history` or `subscriptions`) to its `call`-th request (from 1)
    /// for `uri` (path and query).
    let script: @Sendable (_ endpoint: String, _ call: Int, _ uri: String) -> Answer
    private let calls = Mutex<[String: Int]>([:])
    private let authorizations = Mutex<[String]>([])
    private let uris = Mutex<[String]>([])
    private let arrivals = Mutex<[ContinuousClock.Instant]>([])
    private let endlessBodies = Mutex<(started: Int, finished: Int)>((0, 0))

    init(_ script: @escaping @Sendable (_ endpoint: String, _ call: Int, _ uri: String) -> Answer) {
        self.script = script
    }

    /// Requests each endpoint got.
    func count(_ endpoint: String) -> Int { calls.withLock { $0[endpoint] ?? 0 } }
    /// When each request arrived, in order.
    var arrivalTimes: [ContinuousClock.Instant] { arrivals.withLock { $0 } }
    /// Endless bodies begun, and those written to their end (1 GiB: the client read it all).
    var endless: (started: Int, finished: Int) { endlessBodies.withLock { $0 } }
    /// Every request's path and query, in order.
    var requests: [String] { uris.withLock { $0 } }
    /// Every `Authorization` header received.
    var bearerTokens: [String] { authorizations.withLock { $0 } }

    /// Serves on a free loopback port while `body` runs with the base URL.
    func serve<T: Sendable>(_ body: @escaping @Sendable (String) async throws -> T) async throws -> T {
        let router = Router()
        router.get("/inApps/v2/history/:id") { request, _ in try await self.answer("history", request) }
        router.get("/inApps/v1/subscriptions/:id") { request, _ in try await self.answer("subscriptions", request) }
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: TestServer.logger)
        return try await application.test(.live) { client in
            guard let port = client.port else { throw UnexpectedAnswer(description: "the stub has no port") }
            return try await body("http://127.0.0.1:\(port)")
        }
    }

    private func answer(_ endpoint: String, _ request: Request) async throws -> Response {
        let call = calls.withLock { calls in
            calls[endpoint, default: 0] += 1
            return calls[endpoint]!
        }
        authorizations.withLock { $0.append(request.headers[.authorization] ?? "") }
        uris.withLock { $0.append(request.uri.description) }
        arrivals.withLock { $0.append(.now) }
        switch script(endpoint, call, request.uri.description) {
        case .reply(let status, let headers, let body):
            var fields = HTTPFields()
            fields[.contentType] = "application/json"
            for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
            return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        case .endless(let declared):
            let chunk = ByteBuffer(repeating: UInt8(ascii: "["), count: 64 << 10)
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(contentLength: declared) { writer in
                    self.endlessBodies.withLock { $0.started += 1 }
                    for _ in 0 ..< (1 << 14) { try await writer.write(chunk) }
                    try await writer.finish(nil)
                    self.endlessBodies.withLock { $0.finished += 1 }
                })
        case .stall(let seconds):
            try await Task.sleep(for: .seconds(seconds))
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
        }
    }

    /// A history page's body.
    static func historyPage(_ tokens: [String], revision: String, hasMore: Bool) -> String {
        let object: [String: Any] = [
            "revision": revision, "hasMore": hasMore, "bundleId": Synthetic.bundleID, "environment": "Production", "signedTransactions": tokens,
        ]
        return String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A status body of `entries` (original, transaction token, renewal token) in one group.
    static func statuses(_ entries: [(String, String, String?)]) -> String {
        let last = entries.map { entry -> [String: Any] in
            var item: [String: Any] = ["originalTransactionId": entry.0, "status": 1, "signedTransactionInfo": entry.1]
            item["signedRenewalInfo"] = entry.2
            return item
        }
        let data: [[String: Any]] = last.isEmpty ? [] : [["subscriptionGroupIdentifier": "21000001", "lastTransactions": last]]
        let object: [String: Any] = ["environment": "Production", "bundleId": Synthetic.bundleID, "data": data]
        return String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Apple's error body.
    static func error(_ code: Int, _ message: String) -> String {
        #"{"errorCode":\#(code),"errorMessage":"\#(message)"}"#
    }
}
