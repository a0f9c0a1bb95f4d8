import Synchronization

/// A bounded cache of verdicts keyed by the SHA-256 of the receipt bytes (and the verification
/// context): devices resend the same receipt at every launch. Only verdicts this process reached
/// are inserted, and a hit also compares the bytes, so a trust decision always comes from this
/// process's own verification of exactly those bytes. Malformed input is not cached (it fails
/// fast, and would only evict useful entries). The oldest entry leaves first.
final class VerificationCache: Sendable {
    struct Key: Hashable, Sendable {
        let sha256: [UInt8]
        let context: VerificationContext
    }

    /// A cached verdict, and whether the receipt is known to be in the database already.
    struct Entry: Sendable {
        let bytes: [UInt8]
        let verdict: Verdict
        var stored: Bool
    }

    private struct State: ~Copyable {
        var entries: [Key: Entry] = [:]
        var order: [Key] = []   // insertion order, a ring once full
        var next = 0
    }

    let capacity: Int
    private let state = Mutex(State())

    /// `capacity` 0 turns the cache off.
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    func lookup(_ key: Key, bytes: [UInt8]) -> Entry? {
        guard capacity > 0 else { return nil }
        return state.withLock { state in
            guard let entry = state.entries[key], entry.bytes == bytes else { return nil }
            return entry
        }
    }

    func insert(_ key: Key, _ entry: Entry) {
        guard capacity > 0 else { return }
        state.withLock { state in
            if state.entries.updateValue(entry, forKey: key) != nil { return }
            if state.order.count < capacity {
                state.order.append(key)
            } else {
                state.entries.removeValue(forKey: state.order[state.next])
                state.order[state.next] = key
                state.next = (state.next + 1) % capacity
            }
        }
    }

    /// Records that the receipt under `key` is durable in the database.
    func markStored(_ key: Key) {
        guard capacity > 0 else { return }
        state.withLock { state in state.entries[key]?.stored = true }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
