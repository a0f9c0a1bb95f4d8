import CryptoPrimitives
import Logging
import ReceiptStore
import Synchronization

/// The In-App Purchase keys a running server accepts, read from the store and kept in memory.
///
/// Reload rule: a snapshot serves requests for at most `maxAge` (1 s) of request time; the first
/// request after that reloads it from the store (one reload at a time: concurrent requests wait
/// for the same one, each within its own storage deadline) before it is answered. So a key
/// added, replaced or revoked by `receipt-server iapkey` (in this process or another instance)
/// takes effect within about a second, an unknown `kid` costs at most one query per second
/// however often it is sent, and a server that is not asked does not query at all. A failed or
/// stalled reload keeps the last snapshot (and is retried a second later).
final class APIKeySet: Sendable {
    /// A key as verification uses it: revoked keys are left out of the snapshot.
    struct Key: Sendable {
        let issuerID: String
        /// The point as stored; compared when a cached token's key may have been replaced.
        let publicKeyBytes: [UInt8]
        let publicKey: ECDSAPublicKey
        let bundleIDs: Set<String>
    }

    /// Longest a snapshot serves, in milliseconds of request time.
    static let maxAge: Int64 = 1_000

    private struct State {
        var keys: [String: Key] = [:]
        /// The request time of the last reload (nil: never loaded).
        var loadedAt: Int64?
        var reloading: Task<Void, Never>?
    }

    private let store: any IAPKeyStore
    private let logger: Logger
    private let state = Mutex(State())

    init(store: any IAPKeyStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The unrevoked key `keyID` at request time `now`, after reloading the snapshot when it was
    /// loaded `maxAge` or more before `now` (or after it: a clock set back by a second or more;
    /// concurrent requests whose clocks differ by a few milliseconds share one snapshot).
    func key(_ keyID: String, now: Int64) async -> Key? {
        let reload = state.withLock { state -> Task<Void, Never>? in
            if let loaded = state.loadedAt, abs(now - loaded) < Self.maxAge { return nil }
            if let running = state.reloading { return running }
            let task = Task { await self.reload(now: now) }
            state.reloading = task
            return task
        }
        // The wait counts against this request's storage deadline; past it, the snapshot as it
        // is (a reload stalled by an outage then keeps the last keys, as a failed one would).
        if let reload { _ = await StorageDeadline.wait(for: reload) }
        return state.withLock { $0.keys[keyID] }
    }

    /// Reads every key from the store and replaces the snapshot.
    private func reload(now: Int64) async {
        let loaded: [String: Key]?
        do {
            let records = try await store.iapKeys()
            loaded = Self.snapshot(records, previous: state.withLock { $0.keys }, logger: logger)
        } catch {
            logger.warning("In-App Purchase keys not reloaded", metadata: ["error": "\(error)"])
            loaded = nil
        }
        state.withLock { state in
            if let loaded { state.keys = loaded }
            state.loadedAt = now
            state.reloading = nil
        }
    }

    /// The unrevoked keys of `records` by id, each with its verification table (a key signs
    /// many JWTs: each then verifies in about half the time). A key `previous` holds with the same
    /// id and point keeps its table; a new one takes about 0.15 ms to build. A stored point that is
    /// not a valid P-256 key is left out (and logged).
    static func snapshot(_ records: [IAPKeyRecord], previous: [String: Key] = [:], logger: Logger) -> [String: Key] {
        var keys: [String: Key] = [:]
        for record in records where record.revokedMilliseconds == nil {
            let publicKey: ECDSAPublicKey
            if let known = previous[record.keyID], known.publicKeyBytes == record.publicKey {
                publicKey = known.publicKey
            } else if let point = try? ECDSAPublicKey(curve: .p256, x963Representation: record.publicKey) {
                publicKey = point.withVerificationTable()
            } else {
                logger.warning("In-App Purchase key with an invalid public key ignored", metadata: ["kid": "\(record.keyID)"])
                continue
            }
            keys[record.keyID] = Key(
                issuerID: record.issuerID, publicKeyBytes: record.publicKey, publicKey: publicKey, bundleIDs: Set(record.bundleIDs))
        }
        return keys
    }
}
