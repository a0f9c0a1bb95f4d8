import Foundation
import Logging
import ReceiptStore
import ServiceLifecycle
import Synchronization

/// Delivers the outbox (issue 38): a service beside the HTTP server. It claims due deliveries
/// from storage (`WebhookStore.claimWebhookAttempts`: leased, so several instances on one
/// PostgreSQL make each attempt once), POSTs each one signed (`WebhookSignature`) through the
/// transport, at most `perEndpoint` at once per endpoint, and records outcomes in batches. A 2xx
/// is delivered; any other status, a refused connection or no answer within `timeout` is tried
/// again on the schedule, and failed after its last attempt. Intake never waits for it: events
/// are written by the notification writer, and delivery only reads and updates the outbox.
public final class WebhookDeliverer: Service, Sendable {
    /// How deliveries are made.
    public struct Configuration: Sendable {
        /// How long one attempt may take, connection to answer.
        public var timeout: Duration
        /// When failed attempts are tried again.
        public var schedule: WebhookRetrySchedule
        /// Attempts in flight at once per endpoint.
        public var perEndpoint: Int
        /// Attempts claimed at most per claim.
        public var batch: Int
        /// How often storage is asked for due deliveries while none is found.
        public var poll: Duration
        /// How often the queue metrics are read.
        public var queueInterval: Duration
        /// How long delivered deliveries are kept (`--webhook-retention`); nil: for ever.
        public var retention: Duration?
        /// How often deliveries older than `retention` are pruned.
        public var pruneInterval: Duration

        /// A configuration; the defaults are the server's.
        public init(
            timeout: Duration = .seconds(10), schedule: WebhookRetrySchedule = .standard, perEndpoint: Int = 32, batch: Int = 256,
            poll: Duration = .milliseconds(100), queueInterval: Duration = .seconds(5), retention: Duration? = .seconds(7 * 86_400),
            pruneInterval: Duration = .seconds(60)
        ) {
            self.retention = retention
            self.pruneInterval = pruneInterval
            self.timeout = timeout
            self.schedule = schedule
            self.perEndpoint = max(1, perEndpoint)
            self.batch = max(1, batch)
            self.poll = poll
            self.queueInterval = queueInterval
        }

        /// A claim's lease: long enough for the claimed attempts of one endpoint to take their
        /// turns (`batch / perEndpoint` rounds of `timeout`) and for the outcome to be written.
        var leaseMilliseconds: Int64 {
            let rounds = Int64((batch + perEndpoint - 1) / perEndpoint)
            return (rounds + 1) * Int64(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000) + 5000
        }
    }

    let store: any WebhookStore
    let secrets: SecretsKey
    let transport: any WebhookTransport
    let configuration: Configuration
    let metrics: WebhookMetrics
    let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var inFlight: [String: Int] = [:]
        var outcomes: [WebhookOutcome] = []
        var secrets: [String: (sealed: [UInt8], secret: WebhookSecret)] = [:]
        var wake: CheckedContinuation<Void, Never>?
        var woken = false
        var stopping = false
    }

    /// A deliverer over `store`, opening secrets with `secrets`.
    public init(
        store: any WebhookStore, secrets: SecretsKey, transport: any WebhookTransport, configuration: Configuration,
        metrics: WebhookMetrics, logger: Logger
    ) {
        self.store = store
        self.secrets = secrets
        self.transport = transport
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
    }

    /// Delivers until graceful shutdown; then lets the attempts in flight end (each within
    /// `timeout`) and records their outcomes.
    public func run() async throws {
        await withTaskCancellationHandler {
            await runUntilStopped()
        } onCancel: {
            self.stop()
        }
    }

    private func runUntilStopped() async {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { queues in
                queues.addTask { await self.watchQueues() }
                await withDiscardingTaskGroup { group in await self.deliver(group: &group) }
                queues.cancelAll()
            }
            await flush()
        } onGracefulShutdown: {
            self.stop()
        }
    }

    private func stop() {
        let wake = state.withLock { state in
            state.stopping = true
            defer { state.wake = nil }
            return state.wake
        }
        wake?.resume()
    }

    private var stopping: Bool { state.withLock { $0.stopping } }

    /// Whether a storage call that just failed was cut short by stopping (cancelled in flight):
    /// no storage failure, not logged as one.
    private var stoppedMidCall: Bool { stopping || Task.isCancelled }

    /// The claim loop.
    private func deliver(group: inout DiscardingTaskGroup) async {
        do {
            try await store.releaseWebhookLeases()
        } catch {
            logger.warning("webhook leases not released; they end with their time", metadata: ["error": "\(error)"])
        }
        while !stopping {
            await flush()
            let (excluded, free) = state.withLock { state in
                (
                    state.inFlight.filter { $0.value >= configuration.perEndpoint }.map(\.key).sorted(),
                    configuration.batch - state.inFlight.values.reduce(0, +)
                )
            }
            var claimed: [WebhookAttempt] = []
            if free > 0 {
                do {
                    claimed = try await store.claimWebhookAttempts(
                        limit: free, excluding: excluded, now: EpochMilliseconds.now(), leaseMilliseconds: configuration.leaseMilliseconds)
                } catch {
                    if stoppedMidCall { break }
                    logger.warning("webhook deliveries not claimed; storage unavailable", metadata: ["error": "\(error)"])
                    try? await Task.sleep(for: .seconds(1))
                    continue
                }
            }
            for attempt in claimed { start(attempt, group: &group) }
            if claimed.count < free || free <= 0 { await sleep() }
        }
    }

    /// Starts one attempt now if its endpoint has a free slot (a claim may hold more attempts
    /// for one endpoint than it has slots: those wait for a slot in turn).
    private func start(_ attempt: WebhookAttempt, group: inout DiscardingTaskGroup) {
        state.withLock { $0.inFlight[attempt.endpointID, default: 0] += 1 }
        group.addTask {
            await self.waitForSlot(attempt.endpointID)
            // Past shutdown, an attempt still waiting is not made: its lease ends (or, on
            // SQLite, is released at the next start) and it is claimed again.
            if self.stopping {
                self.releaseSlot(attempt.endpointID)
                return self.finish(nil, endpointID: attempt.endpointID)
            }
            self.finish(await self.attempt(attempt), endpointID: attempt.endpointID)
        }
    }

    /// Endpoints' running attempts, bounded by `perEndpoint`.
    private let slots = Mutex<[String: (running: Int, waiting: [CheckedContinuation<Void, Never>])]>([:])

    private func waitForSlot(_ endpointID: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = slots.withLock { slots in
                var entry = slots[endpointID] ?? (running: 0, waiting: [])
                defer { slots[endpointID] = entry }
                if entry.running < configuration.perEndpoint {
                    entry.running += 1
                    return true
                }
                entry.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func releaseSlot(_ endpointID: String) {
        let next = slots.withLock { slots -> CheckedContinuation<Void, Never>? in
            guard var entry = slots[endpointID] else { return nil }
            defer { slots[endpointID] = entry.running == 0 && entry.waiting.isEmpty ? nil : entry }
            if !entry.waiting.isEmpty { return entry.waiting.removeFirst() }
            entry.running -= 1
            return nil
        }
        next?.resume()
    }

    /// One POST and what became of it.
    func attempt(_ a: WebhookAttempt) async -> WebhookOutcome {
        defer { releaseSlot(a.endpointID) }
        let status: Int?
        let failure: String?
        do {
            let secret = try secret(for: a)
            let now = EpochMilliseconds.now()
            let headers = WebhookSignature.headers(id: a.eventID, timestamp: now / 1000, body: a.body, secret: secret.bytes)
            let answered = try await transport.post(url: a.url, headers: headers, body: a.body, timeout: configuration.timeout)
            status = answered
            failure = (200 ..< 300).contains(answered) ? nil : "HTTP \(answered)"
        } catch let error as WebhookSecretUnreadable {
            status = nil
            failure = error.description
        } catch {
            status = nil
            failure = Self.reason(error)
        }
        let now = EpochMilliseconds.now()
        guard let failure else {
            metrics.delivered.increment()
            metrics.latency.recordMilliseconds(max(0, now - a.eventMilliseconds))
            return WebhookOutcome(
                eventID: a.eventID, endpointID: a.endpointID, attempt: a.attempt, state: .delivered, status: status, error: nil,
                milliseconds: now)
        }
        let next = configuration.schedule.nextAttempt(after: a.attempt, now: now) { Double.random(in: 0 ..< 1) }
        if next == nil { metrics.failed.increment() } else { metrics.retried.increment() }
        var metadata: Logger.Metadata = [
            "event_id": "\(a.eventID)", "endpoint_id": "\(a.endpointID)", "attempt": "\(a.attempt)", "error": "\(failure)",
        ]
        if let next { metadata["next_attempt_ms"] = "\(next)" } else { metadata["failed"] = "true" }
        logger.warning("webhook attempt failed", metadata: metadata)
        return WebhookOutcome(
            eventID: a.eventID, endpointID: a.endpointID, attempt: a.attempt, state: next == nil ? .failed : .pending, status: status,
            error: failure, milliseconds: next ?? now)
    }

    /// The endpoint's secret, opened once per sealed value.
    private func secret(for a: WebhookAttempt) throws -> WebhookSecret {
        if let cached = state.withLock({ $0.secrets[a.endpointID] }), cached.sealed == a.sealedSecret { return cached.secret }
        guard let secret = try? WebhookSecret.open(a.sealedSecret, under: secrets, endpointID: a.endpointID) else {
            throw WebhookSecretUnreadable()
        }
        state.withLock { $0.secrets[a.endpointID] = (a.sealedSecret, secret) }
        return secret
    }

    /// An error in a few words, never a URL's query nor a body: the transport's own description
    /// (AsyncHTTPClient's errors name no URL).
    static func reason(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    private func finish(_ outcome: WebhookOutcome?, endpointID: String) {
        let wake = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.inFlight[endpointID, default: 1] -= 1
            if state.inFlight[endpointID] == 0 { state.inFlight[endpointID] = nil }
            if let outcome { state.outcomes.append(outcome) }
            // Woken for a batch of outcomes or when half the claim is done, not for each one:
            // every claim and every batch of outcomes is a write transaction (SQLite: a sync).
            let running = state.inFlight.values.reduce(0, +)
            guard state.outcomes.count >= 64 || running <= configuration.batch / 2 else { return nil }
            state.woken = true
            defer { state.wake = nil }
            return state.wake
        }
        wake?.resume()
    }

    /// Writes the outcomes gathered so far; on failure keeps them for the next try.
    private func flush() async {
        let outcomes = state.withLock { state in
            defer { state.outcomes = [] }
            return state.outcomes
        }
        guard !outcomes.isEmpty else { return }
        do {
            try await store.recordWebhookOutcomes(outcomes)
        } catch {
            logger.warning("webhook outcomes not recorded yet; storage unavailable", metadata: ["error": "\(error)"])
            state.withLock { $0.outcomes.insert(contentsOf: outcomes, at: 0) }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Until an attempt finishes, the poll interval passes, or shutdown.
    private func sleep() async {
        let poll = configuration.poll
        await withTaskGroup(of: Void.self) { group in
            defer { group.cancelAll() }
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = self.state.withLock { state in
                        if state.woken || state.stopping {
                            state.woken = false
                            return true
                        }
                        state.wake = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            }
            group.addTask {
                try? await Task.sleep(for: poll)
                let wake = self.state.withLock { state in
                    // Not parked yet: the waiter sees `woken` and returns at once.
                    if state.wake == nil { state.woken = true }
                    defer { state.wake = nil }
                    return state.wake
                }
                wake?.resume()
            }
            _ = await group.next()
        }
        state.withLock { $0.woken = false }
    }

    /// Reads the queues every `queueInterval` into the metrics, and prunes what was delivered
    /// longer than `retention` ago every `pruneInterval`, until shutdown.
    private func watchQueues() async {
        var lastPrune = ContinuousClock.now - configuration.pruneInterval
        while !stopping {
            if let queues = try? await store.webhookQueue() { metrics.record(queues, now: EpochMilliseconds.now()) }
            if ContinuousClock.now - lastPrune >= configuration.pruneInterval {
                lastPrune = .now
                await prune()
            }
            try? await Task.sleep(for: configuration.queueInterval)
        }
    }

    /// Deletes deliveries delivered before `retention` ago, 1,000 per transaction so that
    /// notification intake waits for none of them long.
    func prune() async {
        guard let retention = configuration.retention else { return }
        let cutoff = EpochMilliseconds.now() - retention.wholeNanoseconds / 1_000_000
        while !stopping {
            do {
                guard try await store.pruneDeliveredWebhooks(deliveredBefore: cutoff, limit: 1000) == 1000 else { return }
            } catch {
                if !stoppedMidCall {
                    logger.warning("delivered webhooks not pruned; tried again later", metadata: ["error": "\(error)"])
                }
                return
            }
        }
    }
}

/// An endpoint's stored secret does not open under this server's secrets key (its row was
/// changed outside the server, or copied from another database).
struct WebhookSecretUnreadable: Error, CustomStringConvertible {
    var description: String { "the endpoint's sealed secret does not open under the secrets key" }
}
