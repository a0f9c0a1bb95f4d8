import Synchronization

/// A bounded cache of verdicts keyed by the SHA-256 of the receipt bytes (and the verification
/// context): devices resend the same receipt at every launch.
///
/// Authentic verdicts: only verdicts this process reached are inserted, and a hit also compares
/// the bytes, so a trust decision always comes from this process's own verification of exactly
/// those bytes. They are bounded twice, by entries (`--cache`) and by bytes (`--cache-bytes`,
/// the receipt and what was decoded from it), so a few large receipts cannot take the memory that
/// many small ones were given. The oldest entry leaves first.
///
/// Refused verdicts (not authentic, 21003) are kept apart, in a small ring of SHA-256 keys only,
/// without the bytes. A hash match can only ever repeat a refusal, never grant trust, so the bytes
/// need not be compared; and since junk is free to make, a flood of distinct junk only churns
/// this ring and never evicts an authentic entry. A device resending the same broken receipt is
/// still answered without a second verification. Malformed input is not cached at all: it fails
/// fast, before any signature is checked.
final class VerificationCache: Sendable {
    struct Key: Hashable, Sendable {
        let sha256: [UInt8]
        let context: VerificationContext
    }

    /// A cached authentic verdict, and whether the receipt is known to be in the database already.
    struct Entry: Sendable {
        let bytes: [UInt8]
        let verdict: Verdict
        var stored: Bool
    }

    private struct Slot {
        var entry: Entry
        let cost: Int
    }

    private struct State: ~Copyable {
        var entries: [Key: Slot] = [:]
        var order: [Key] = []   // insertion order; order[head...] are live (or removed) keys
        var head = 0
        var bytes = 0
        var refused: Set<Key> = []
        var refusedOrder: [Key] = []   // a ring once full
        var refusedNext = 0
    }

    /// Authentic entries at most (`--cache`); 0 turns the whole cache off.
    let capacity: Int
    /// Bytes the authentic entries may take at most (`--cache-bytes`).
    let byteLimit: Int
    /// Refused SHA-256 keys kept at most.
    let refusedCapacity: Int
    private let state = Mutex(State())

    /// Refused keys kept by default: 4,096 keys of 32 bytes, well under a MiB with their overhead.
    static let defaultRefusedCapacity = 4_096

    /// `capacity` 0 turns the cache off.
    init(capacity: Int, byteLimit: Int = 64 << 20, refusedCapacity: Int = defaultRefusedCapacity) {
        self.capacity = max(0, capacity)
        self.byteLimit = max(0, byteLimit)
        self.refusedCapacity = self.capacity == 0 ? 0 : max(0, refusedCapacity)
    }

    /// The authentic verdict for exactly these bytes, if cached.
    func lookup(_ key: Key, bytes: [UInt8]) -> Entry? {
        guard capacity > 0 else { return nil }
        return state.withLock { state in
            guard let slot = state.entries[key], slot.entry.bytes == bytes else { return nil }
            return slot.entry
        }
    }

    /// Whether these bytes' SHA-256 (in this context) was refused as not authentic.
    func isRefused(_ key: Key) -> Bool {
        guard refusedCapacity > 0 else { return false }
        return state.withLock { $0.refused.contains(key) }
    }

    /// Caches an authentic verdict (one larger than `byteLimit` is not cached).
    func insert(_ key: Key, _ entry: Entry) {
        guard capacity > 0, case .authentic(let receipt) = entry.verdict else { return }
        let cost = receipt.approximateBytes
        guard cost <= byteLimit else { return }
        state.withLock { state in
            if let old = state.entries.updateValue(Slot(entry: entry, cost: cost), forKey: key) {
                state.bytes += cost - old.cost
                return
            }
            state.order.append(key)
            state.bytes += cost
            while state.entries.count > capacity || state.bytes > byteLimit, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                if oldest != key, let removed = state.entries.removeValue(forKey: oldest) { state.bytes -= removed.cost }
            }
            if state.head > 1024 && state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
        }
    }

    /// Remembers that the bytes under `key` are not authentic (their SHA-256 only).
    func insertRefused(_ key: Key) {
        guard refusedCapacity > 0 else { return }
        state.withLock { state in
            guard state.refused.insert(key).inserted else { return }
            if state.refusedOrder.count < refusedCapacity {
                state.refusedOrder.append(key)
            } else {
                state.refused.remove(state.refusedOrder[state.refusedNext])
                state.refusedOrder[state.refusedNext] = key
                state.refusedNext = (state.refusedNext + 1) % refusedCapacity
            }
        }
    }

    /// Records that the receipt under `key` is durable in the database.
    func markStored(_ key: Key) {
        guard capacity > 0 else { return }
        state.withLock { state in state.entries[key]?.entry.stored = true }
    }

    /// Authentic entries cached.
    var count: Int { state.withLock { $0.entries.count } }
    /// Bytes the authentic entries take (by `VerifiedReceipt.approximateBytes`).
    var bytes: Int { state.withLock { $0.bytes } }
    /// Refused keys cached.
    var refusedCount: Int { state.withLock { $0.refused.count } }
}

extension VerifiedReceipt {
    /// What a cache entry holds, roughly: the receipt bytes, the JSON decoded from them, each
    /// purchase's strings, and a fixed overhead per entry and per purchase.
    var approximateBytes: Int {
        var total = 512 + record.bytes.count + receiptJSON.utf8.count + record.bundleID.utf8.count
        for transaction in record.transactions {
            total +=
                128 + transaction.json.utf8.count + transaction.transactionID.utf8.count
                + transaction.originalTransactionID.utf8.count + transaction.productID.utf8.count
        }
        for id in subscriptionOriginalIDs { total += 32 + id.utf8.count }
        return total
    }
}
