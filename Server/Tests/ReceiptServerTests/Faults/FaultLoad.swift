import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Clients that keep a live server busy during a fault, and what each of their requests got: an
/// answer that counts as done (acknowledged), the documented retryable failure, or anything else
/// (another status, no answer within `patience`, a broken connection).
final class FaultLoad: Sendable {
    enum Outcome: Sendable { case acknowledged, retryable, wrong(String) }

    struct Answer: Sendable {
        let kind: String
        let outcome: Outcome
        let sent: ContinuousClock.Instant
        let latency: Duration
    }

    /// How long a client waits for an answer before calling it a hang.
    static let patience: Duration = .seconds(20)

    let client: HTTPClient
    let baseURL: String
    private let answers = Mutex<[Answer]>([])
    private let stopped = Atomic<Bool>(false)

    init(baseURL: String, connections: Int) {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connections
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.baseURL = baseURL
    }

    var all: [Answer] { answers.withLock { $0 } }
    var isStopped: Bool { stopped.load(ordering: .relaxed) }
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Sends one request and records its outcome as `classify` judges the status code and body.
    @discardableResult
    func send(
        _ kind: String, _ request: HTTPClientRequest,
        classify: @Sendable (UInt, [String: Any]) -> Outcome
    ) async -> Outcome {
        let sent = ContinuousClock.now
        let outcome: Outcome
        do {
            let response = try await client.execute(request, timeout: .init(Self.patience))
            let body = try await response.body.collect(upTo: 16 << 20)
            let json = (try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]) ?? [:]
            outcome = classify(response.status.code, json)
        } catch {
            outcome = .wrong("\(kind): no answer after \(ContinuousClock.now - sent): \(error)")
        }
        answers.withLock { $0.append(Answer(kind: kind, outcome: outcome, sent: sent, latency: ContinuousClock.now - sent)) }
        return outcome
    }

    /// A POST of a JSON body.
    static func post(_ url: String, _ body: Data, headers: [(String, String)] = []) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        return request
    }

    /// verifyReceipt: status 0 acknowledged, 21100 retryable.
    @Sendable static func verifyReceipt(_ code: UInt, _ json: [String: Any]) -> Outcome {
        switch (code, json["status"] as? Int) {
        case (200, 0): return .acknowledged
        case (200, 21100) where json["is-retryable"] as? Bool == true: return .retryable
        default: return .wrong("verifyReceipt: HTTP \(code) \(json)")
        }
    }

    /// Notifications: 200 acknowledged, 503 retryable.
    @Sendable static func notification(_ code: UInt, _ json: [String: Any]) -> Outcome {
        switch code {
        case 200: return .acknowledged
        case 503: return .retryable
        default: return .wrong("notification: HTTP \(code) \(json)")
        }
    }

    /// The App Store Server API: 200 answered, 500 with errorCode 5000001 retryable.
    @Sendable static func appStoreAPI(_ code: UInt, _ json: [String: Any]) -> Outcome {
        switch (code, json["errorCode"] as? Int) {
        case (200, _): return .acknowledged
        case (500, 5_000_001): return .retryable
        default: return .wrong("inApps: HTTP \(code) \(json)")
        }
    }

    /// `/health`: 200 or 503.
    @Sendable static func health(_ code: UInt, _ json: [String: Any]) -> Outcome {
        switch code {
        case 200: return .acknowledged
        case 503: return .retryable
        default: return .wrong("health: HTTP \(code) \(json)")
        }
    }

    /// The slowest answer, the 99th percentile and the count, of `answers`.
    static func summary(_ answers: [Answer]) -> (count: Int, p99: Duration, max: Duration) {
        let sorted = answers.map(\.latency).sorted()
        guard let last = sorted.last else { return (0, .zero, .zero) }
        return (sorted.count, sorted[min(sorted.count - 1, sorted.count * 99 / 100)], last)
    }
}

extension FaultLoad.Outcome {
    var isAcknowledged: Bool { if case .acknowledged = self { true } else { false } }
    var isRetryable: Bool { if case .retryable = self { true } else { false } }
    var wrong: String? { if case .wrong(let text) = self { text } else { nil } }
}
