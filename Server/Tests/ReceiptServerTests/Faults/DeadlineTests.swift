import Foundation
import Logging
import PostgresNIO
import ReceiptService
import Synchronization
import Testing

@testable import ReceiptStore

/// The storage deadline bounds calls that ignore cancellation: the caller is answered at the
/// deadline, not when the call finally returns (issue 22: requests hung while PostgreSQL was down).
@Suite struct DeadlineTests {
    /// A wait that ignores cancellation: it returns only when `open()` is called.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }

        func open() {
            let waiters = state.withLock { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// A body that never returns before the gate opens (and ignores cancellation) is answered
    /// `DeadlineExceeded` at the deadline; its late result is dropped.
    @Test func callIgnoringCancellationIsAnsweredAtTheDeadline() async throws {
        let gate = Gate()
        let start = ContinuousClock.now
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.milliseconds(300)) {
                await gate.wait()
                return 1
            }
        }
        let waited = ContinuousClock.now - start
        gate.open()
        #expect(waited >= .milliseconds(300) && waited < .seconds(5), "\(waited)")   // the body never returns by itself
        // A fast body's result (and error) pass through unchanged.
        #expect(try await withDeadline(.seconds(5)) { 7 } == 7)
        await #expect(throws: StoreError.self) { try await withDeadline(.seconds(5)) { () -> Int in throw StoreError.closed } }
    }

    /// Waiting for work another request started (the In-App Purchase key reload) is one of this
    /// request's storage calls: a stalled one is given up at this request's deadline, and what
    /// the request calls next has only what is left (the fault test's /inApps answer took 8.8 s:
    /// 3.7 s waiting for a reload stalled by the outage, then its own full 5 s).
    @Test func waitingForSharedWorkCountsAgainstTheRequestsDeadline() async throws {
        let gate = Gate()
        let shared = Task { await gate.wait() }
        let start = ContinuousClock.now
        let (waited, left) = await StorageDeadline.shared(.milliseconds(400)) {
            (await StorageDeadline.wait(for: shared), StorageDeadline.limit(.seconds(5)))
        }
        let elapsed = ContinuousClock.now - start
        #expect(!waited, "the shared work never finished")
        #expect(left == .zero, "\(left) left after the deadline")
        #expect(elapsed >= .milliseconds(400) && elapsed < .seconds(3), "\(elapsed)")
        gate.open()
        // Work that finishes in time is waited for.
        #expect(await StorageDeadline.shared(.seconds(5)) { await StorageDeadline.wait(for: Task {}) })
    }

    /// The caller's cancellation answers at once, even when the body ignores it.
    @Test func callerCancellationIsNotHeldByTheBody() async throws {
        let gate = Gate()
        let task = Task { try await withDeadline(.seconds(60)) { await gate.wait() } }
        try await Task.sleep(for: .milliseconds(50))
        let start = ContinuousClock.now
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(ContinuousClock.now - start < .seconds(5))
        gate.open()
    }

    /// A group commit whose transaction never returns: the submitter is answered at its deadline;
    /// a later item, still queued when its deadline passes, is taken out of the queue and never
    /// committed.
    @Test func queuedWriteThatTimesOutIsNeverCommitted() async throws {
        let gate = Gate()
        let committed = Mutex<[Int]>([])
        let writer = GroupCommit<Int> { batch in
            await gate.wait()
            committed.withLock { $0 += batch }
        }
        let running = Task { await writer.run() }
        let start = ContinuousClock.now
        await #expect(throws: DeadlineExceeded.self) { try await withDeadline(.milliseconds(300)) { try await writer.submit(1) } }
        await #expect(throws: DeadlineExceeded.self) { try await withDeadline(.milliseconds(300)) { try await writer.submit(2) } }
        #expect(ContinuousClock.now - start < .seconds(8))
        gate.open()
        try await writer.submit(3)
        writer.close()
        await running.value
        // 1 was in the batch being committed (it commits late; its caller was told it failed).
        #expect(committed.withLock { $0 } == [1, 3])
    }

    /// PostgreSQL: a write and a read blocked behind another session's table lock (postgres-nio
    /// does not stop a running query on cancellation) fail within the 5 s deadline; the
    /// server's later answers are normal once the lock is released.
    @Test(.enabled(if: TestDatabase.postgresAvailable)) func blockedPostgresCallsFailWithinTheDeadline() async throws {
        let database = try await TestDatabase.make(.postgres)
        guard case .postgres(let location) = try DatabaseLocation(database.url) else { throw UnexpectedAnswer(description: "not PostgreSQL") }
        let store = try await PostgresStore(location, secrets: TestSecrets.key, logger: Logger(label: "deadline-test"))
        let running = Task { try await store.run() }
        defer { running.cancel() }
        let receipt = ReceiptRecord(
            sha256: Array(repeating: 7, count: 32), bytes: [1, 2, 3], bundleID: Synthetic.bundleID, environment: "Production",
            createdMilliseconds: 1_704_103_200_000, transactions: [])

        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        let locker = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "locker"))
        _ = try await locker.query("BEGIN", logger: Logger(label: "locker"))
        _ = try await locker.query("LOCK TABLE receipts, transactions IN ACCESS EXCLUSIVE MODE", logger: Logger(label: "locker"))

        for call in ["save", "history"] {
            let start = ContinuousClock.now
            await #expect(throws: StoreError.self, "\(call)") {
                if call == "save" {
                    try await store.save(receipt)
                } else {
                    _ = try await store.history(bundleID: Synthetic.bundleID, environment: "Production", originalTransactionIDs: ["1"])
                }
            }
            let waited = ContinuousClock.now - start
            #expect(waited >= .seconds(4) && waited < .milliseconds(6_500), "\(call) answered after \(waited)")
        }

        _ = try await locker.query("COMMIT", logger: Logger(label: "locker"))
        try await locker.close()
        try await store.save(receipt)
        #expect(try await store.counts().receipts == 1)
    }
}
