import Foundation
import Synchronization

/// PostgreSQL calls that do not answer in time fail (21100, `/health` 503) instead of holding the
/// request: the connection pool waits for a connection as long as the server is down.
struct DeadlineExceeded: Error, Sendable, CustomStringConvertible {
    var description: String { "storage did not answer in time" }
}

/// `body`'s result, or `DeadlineExceeded` once `limit` has passed, whichever comes first; the
/// caller's cancellation throws `CancellationError` at once.
///
/// The caller resumes at the deadline even when `body` ignores cancellation and never returns:
/// `body` runs in an unstructured task raced against a timer, and the first of them to finish
/// resumes the caller (exactly once). The loser is cancelled and its result dropped. A task
/// group cannot do this: it waits for every child before it returns, cancelled or not. So a
/// write that misses the deadline is reported as failed and may still commit later (a client
/// retries it, and writes are idempotent).
func withDeadline<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    guard limit > .zero else { throw DeadlineExceeded() }
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            guard race.begin(continuation) else { return }
            let work = Task {
                do { race.finish(.success(try await body())) } catch { race.finish(.failure(error)) }
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                race.finish(.failure(DeadlineExceeded()))
            }
            race.watch(work, timer)
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The state `withDeadline` shares between the caller, the work and the timer: the caller's
/// continuation, resumed once by whoever finishes first, and the tasks to cancel then.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State: ~Copyable {
        var continuation: CheckedContinuation<T, any Error>?
        /// The first outcome, kept when it came before the continuation was stored.
        var early: Result<T, any Error>?
        var tasks: [Task<Void, Never>] = []
        var finished = false
    }

    private let state = Mutex(State())

    /// Stores the caller's continuation; false (and the continuation resumed) when the race was
    /// already decided, by the caller's cancellation.
    func begin(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
        let early: Result<T, any Error>? = state.withLock { state in
            guard state.finished else {
                state.continuation = continuation
                return nil
            }
            return state.early
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    /// Keeps the tasks to cancel when the race is decided (at once when it already is).
    func watch(_ tasks: Task<Void, Never>...) {
        let finished = state.withLock { state in
            if !state.finished { state.tasks += tasks }
            return state.finished
        }
        if finished { for task in tasks { task.cancel() } }
    }

    /// The first call resumes the caller with `outcome` and cancels the tasks; later ones do nothing.
    func finish(_ outcome: Result<T, any Error>) {
        let decided: (CheckedContinuation<T, any Error>?, [Task<Void, Never>])? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            defer {
                state.continuation = nil
                state.tasks = []
            }
            if state.continuation == nil { state.early = outcome }
            return (state.continuation, state.tasks)
        }
        guard let (continuation, tasks) = decided else { return }
        for task in tasks { task.cancel() }
        continuation?.resume(with: outcome)
    }
}
