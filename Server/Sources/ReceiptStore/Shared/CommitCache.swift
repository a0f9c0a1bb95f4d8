import Synchronization

/// Values already read from a database that only this process writes (SQLite), valid until the
/// next batch that stores anything: the writers call `invalidate()` after each such commit and
/// before they answer the batch's requests. A read that started before an invalidation is not
/// cached (its generation is stale), so a cached value is never older than the last commit.
///
/// The cache holds at most `capacity` units of `weight` (an entry, or its bytes); once full it
/// takes nothing more until the next commit empties it, so memory stays bounded whatever the keys
/// and a working set larger than the cache costs a look-up per read, not a churn of insertions
/// and evictions.
final class CommitCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State: ~Copyable {
        var generation: UInt64 = 0
        var entries: [Key: Value] = [:]
        var weight = 0
    }

    private let state = Mutex(State())
    /// The most weight the cached values may have together.
    let capacity: Int
    private let weight: @Sendable (Value) -> Int

    /// A cache of at most `capacity` units, each value weighing `weight(value)` (one by default).
    init(capacity: Int, weight: @escaping @Sendable (Value) -> Int = { _ in 1 }) {
        self.capacity = capacity
        self.weight = weight
    }

    /// The cached value, or the generation to pass to `insert` after reading it.
    func lookup(_ key: Key) -> (value: Value?, generation: UInt64) {
        state.withLock { ($0.entries[key], $0.generation) }
    }

    /// Caches `value`, read at `generation`, unless a commit has happened since or the cache has
    /// no room left for it.
    func insert(_ value: Value, for key: Key, readAt generation: UInt64) {
        let added = weight(value)
        state.withLock { state in
            guard state.generation == generation, state.entries[key] == nil, state.weight + added <= capacity else { return }
            state.entries[key] = value
            state.weight += added
        }
    }

    /// Forgets everything: something new is committed.
    func invalidate() {
        state.withLock { state in
            state.generation &+= 1
            state.entries.removeAll(keepingCapacity: true)
            state.weight = 0
        }
    }

    /// How many values are cached (for tests).
    var count: Int { state.withLock { $0.entries.count } }
}

/// What the SQLite store keeps between commits: verifyReceipt's histories and the App Store Server
/// API's customers. Every writer invalidates both, since a receipt's transactions and a
/// notification's rows reach both kinds of read.
final class ReadCaches: Sendable {
    /// A verifyReceipt history: the original transaction ids of one app and environment.
    struct HistoryKey: Hashable, Sendable {
        let bundleID: String
        let environment: String
        let originalTransactionIDs: [String]
    }

    /// A transaction id asked about, of one app and environment.
    struct TransactionKey: Hashable, Sendable {
        let bundleID: String
        let environment: String
        let transactionID: String
    }

    /// An App Store Server API customer: its original transaction ids (sorted), whichever of its
    /// transaction ids it was asked about, so a customer is kept once.
    struct CustomerKey: Hashable, Sendable {
        let bundleID: String
        let environment: String
        let originalTransactionIDs: [String]
    }

    /// 64 MiB of histories: each weighs its latest receipt's bytes and its transactions' and
    /// renewal infos' JSON, plus 256 per row and 256 for the key and the arrays.
    let histories = CommitCache<HistoryKey, PurchaseHistory>(capacity: 64 << 20) { history in
        history.transactions.reduce(256 + (history.latestReceipt?.count ?? 0)) { $0 + $1.json.utf8.count + 256 }
            + history.pendingRenewals.reduce(0) { $0 + $1.json.utf8.count + 256 }
    }
    /// 256 MiB of customers: each weighs its tokens' bytes, plus 256 per row for the row's other
    /// strings and 256 for the key and the arrays. (A customer of four transactions and a renewal
    /// info, Apple's tokens with their three certificates, weighs about 24 KB: about 11,000 fit.)
    let customers = CommitCache<CustomerKey, CustomerRecords>(capacity: 256 << 20) { customer in
        customer.transactions.reduce(256) { $0 + $1.facts.jws.utf8.count + 256 }
            + customer.renewals.reduce(0) { $0 + $1.facts.jws.utf8.count + 256 }
    }

    /// 16 MiB of transaction ids asked about and their customers' original ids: each weighs its
    /// strings' bytes plus 128.
    let originals = CommitCache<TransactionKey, [String]>(capacity: 16 << 20) { originals in
        originals.reduce(128) { $0 + $1.utf8.count + 16 }
    }

    /// Forgets every cached read: a batch has committed something.
    func invalidate() {
        histories.invalidate()
        customers.invalidate()
        originals.invalidate()
    }
}
