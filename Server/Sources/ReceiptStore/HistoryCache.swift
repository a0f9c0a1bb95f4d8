import Synchronization

/// Histories already read from a database that only this process writes (SQLite), valid until the
/// next batch that stores anything: the writer calls `invalidate()` after each such commit and
/// before it answers the batch's requests. A read that started before an invalidation is not
/// cached (its generation is stale), so a cached history is never older than the last commit.
final class HistoryCache: Sendable {
    struct Key: Hashable, Sendable {
        let bundleID: String
        let environment: String
        let originalTransactionIDs: [String]
    }

    private struct State: ~Copyable {
        var generation: UInt64 = 0
        var entries: [Key: PurchaseHistory] = [:]
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// The cached history, or the generation to pass to `insert` after reading it.
    func lookup(_ key: Key) -> (history: PurchaseHistory?, generation: UInt64) {
        state.withLock { ($0.entries[key], $0.generation) }
    }

    /// Caches `history`, read at `generation`, unless a commit has happened since.
    func insert(_ history: PurchaseHistory, for key: Key, readAt generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = history
        }
    }

    /// Forgets everything: something new is committed.
    func invalidate() {
        state.withLock { state in
            state.generation &+= 1
            state.entries.removeAll(keepingCapacity: true)
        }
    }
}
