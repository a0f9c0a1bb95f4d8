import ServiceLifecycle
import Synchronization

/// Group commit: one writer task commits the writes of many concurrent requests in one
/// transaction, then resumes all of them. A caller of `submit` returns only after the transaction
/// holding its item has committed (durable before answered); while one transaction commits (and
/// syncs to disk), the next requests queue up and share the following one, so the cost of a
/// commit is paid once per batch instead of once per request.
final class GroupCommit<Item: Sendable>: Sendable {
    /// Commits a batch in one transaction; throwing fails every item of the batch.
    typealias Commit = @Sendable ([Item]) async throws -> Void

    private struct Waiter {
        let id: UInt64
        let item: Item
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State: ~Copyable {
        var queue: [Waiter] = []
        /// The writer, parked while the queue is empty.
        var writer: CheckedContinuation<Void, Never>?
        var closed = false
        /// The next waiter's id.
        var nextID: UInt64 = 0
    }

    private let commit: Commit
    private let maxBatch: Int
    private let state = Mutex(State())

    init(maxBatch: Int = 512, commit: @escaping Commit) {
        precondition(maxBatch > 0)
        self.maxBatch = maxBatch
        self.commit = commit
    }

    /// Queues `item` and returns once it is committed; throws the commit's error, or
    /// `StoreError.closed` after `close()`. Cancelled while still queued (a caller's deadline),
    /// the item is taken out of the queue and `CancellationError` thrown: it is never written.
    /// Once its batch is committing, cancellation does not stop it.
    func submit(_ item: Item) async throws {
        let id = state.withLock { state in
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: (refusal: (any Error)?, writer: CheckedContinuation<Void, Never>?) = state.withLock { state in
                    guard !state.closed else { return (StoreError.closed, nil) }
                    guard !Task.isCancelled else { return (CancellationError(), nil) }
                    state.queue.append(Waiter(id: id, item: item, continuation: continuation))
                    defer { state.writer = nil }
                    return (nil, state.writer)
                }
                if let refusal = outcome.refusal { return continuation.resume(throwing: refusal) }
                outcome.writer?.resume()
            }
        } onCancel: {
            let waiter: Waiter? = state.withLock { state in
                guard let index = state.queue.firstIndex(where: { $0.id == id }) else { return nil }
                return state.queue.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// The writer loop: commits batches until `close()` has been called and the queue is empty.
    func run() async {
        while let batch = await nextBatch() {
            do {
                try await commit(batch.map(\.item))
                for waiter in batch { waiter.continuation.resume() }
            } catch {
                for waiter in batch { waiter.continuation.resume(throwing: error) }
            }
        }
    }

    /// `run()` as a store's service body: until graceful shutdown or cancellation, then the items
    /// already queued are committed before it returns.
    func runUntilShutdown() async {
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await run()
            } onGracefulShutdown: {
                self.close()
            }
        } onCancel: {
            self.close()
        }
    }

    /// Stops taking items; `run()` returns after committing those already queued.
    func close() {
        let writer = state.withLock { state in
            state.closed = true
            defer { state.writer = nil }
            return state.writer
        }
        writer?.resume()
    }

    private enum Next {
        case batch([Waiter]), finished, wait
    }

    /// Up to `maxBatch` queued items, waiting for one if none is queued; nil once closed and drained.
    private func nextBatch() async -> [Waiter]? {
        while true {
            let next: Next = state.withLock { state in
                if !state.queue.isEmpty {
                    let count = min(maxBatch, state.queue.count)
                    let batch = Array(state.queue.prefix(count))
                    state.queue.removeFirst(count)
                    return .batch(batch)
                }
                return state.closed ? .finished : .wait
            }
            switch next {
            case .batch(let batch): return batch
            case .finished: return nil
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = state.withLock { state in
                        guard state.queue.isEmpty, !state.closed else { return true }
                        state.writer = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }
}
