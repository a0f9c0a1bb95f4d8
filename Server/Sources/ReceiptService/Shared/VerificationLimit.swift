import Metrics
import Synchronization

/// A per-process bound on verifications in flight (`--max-verifications`): a request holds a slot
/// from the moment its body is read until it is answered (verification, and for `verifyReceipt`,
/// the hosted API and notifications the durable write). Past the bound the work is refused at
/// once ("shed") instead of queued: the caller answers "busy, retry" (21100 with
/// `"is-retryable": true`, or HTTP 503 with `Retry-After`). Unbounded queues are how a flood of
/// requests turns into unbounded memory and latency for every client; a refusal costs nothing.
/// Each shed request is counted as `receipt_server_shed_total{endpoint}`.
public final class VerificationLimit: Sendable {
    /// Slots; at most this many verifications run or wait at once.
    public let limit: Int
    private let inFlight = Atomic<Int>(0)
    private let shedCount = Atomic<Int>(0)
    private let factory: (any MetricsFactory)?

    /// Seconds a shed client is told to wait (`Retry-After`).
    public static let retryAfterSeconds = 1

    /// `limit` slots (at least 1); shed requests are counted through `factory`.
    public init(_ limit: Int, factory: (any MetricsFactory)? = nil) {
        self.limit = max(1, limit)
        self.factory = factory
    }

    /// No bound (the `ingest` command: local work the operator started).
    public static var unlimited: VerificationLimit { VerificationLimit(Int.max) }

    /// Runs `work` in a slot when one is free now and returns its result; nil (the work is shed,
    /// not run, and counted for `endpoint`) when every slot is taken.
    public func run<T: Sendable>(at endpoint: String, _ work: () async throws -> T) async rethrows -> T? {
        guard take() else {
            shedCount.add(1, ordering: .relaxed)
            if let factory { Counter(label: "receipt_server_shed_total", dimensions: [("endpoint", endpoint)], factory: factory).increment() }
            return nil
        }
        defer { inFlight.subtract(1, ordering: .releasing) }
        return try await work()
    }

    /// Verifications running or waiting now.
    public var current: Int { inFlight.load(ordering: .relaxed) }

    /// Requests shed since start.
    public var shed: Int { shedCount.load(ordering: .relaxed) }

    private func take() -> Bool {
        var current = inFlight.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = inFlight.compareExchange(expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }
}
