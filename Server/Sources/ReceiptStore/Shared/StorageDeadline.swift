import Foundation
import Synchronization

/// One request's storage time limit: every storage call it makes shares one deadline, `limit` from its
/// first call, so a request making several calls (a save then a read; a key reload then a look-up)
/// is answered within `limit` too, not within `limit` per call.
public final class StorageDeadline: Sendable {
    /// The deadline of the running request (nil outside `shared`).
    @TaskLocal static var current: StorageDeadline?

    private let limit: Duration
    private let started = Mutex<ContinuousClock.Instant?>(nil)

    private init(limit: Duration) { self.limit = limit }

    /// 5 s, the deadline the README promises; `RECEIPT_SERVER_STORAGE_TIMEOUT` (whole seconds,
    /// 1 to 300) replaces it. `Server/ci` sets 30 for its parallel suites, where two hundred tests
    /// share two cores and one PostgreSQL cluster; the fault tests run alone with the 5 s.
    public static let defaultLimit: Duration = {
        guard let text = ProcessInfo.processInfo.environment["RECEIPT_SERVER_STORAGE_TIMEOUT"], let seconds = Int(text),
            (1 ... 300).contains(seconds)
        else { return .seconds(5) }
        return .seconds(seconds)
    }()

    /// Runs `body` with the storage calls it makes (and the tasks it starts) sharing one deadline
    /// of `limit`; inside another `shared`, the outer deadline stays.
    public static func shared<T>(_ limit: Duration = defaultLimit, _ body: () async throws -> T) async rethrows -> T {
        if current != nil { return try await body() }
        return try await $current.withValue(StorageDeadline(limit: limit)) { try await body() }
    }

    /// Waits for `task`, storage work that another request started and this one shares (a key
    /// reload), as one of this request's storage calls: at most what is left of its deadline
    /// (`defaultLimit` outside `shared`). False when the deadline came first; `task` runs on.
    /// Without this, a request that waited for a reload stalled by a database outage and then
    /// made its own call could take the rest of the other request's deadline plus its own.
    public static func wait(for task: Task<Void, Never>) async -> Bool {
        do {
            try await withDeadline(limit(defaultLimit)) { await task.value }
            return true
        } catch {
            return false
        }
    }

    /// How long a call starting now may take: `call`, or less when the request's deadline comes
    /// sooner (zero once it has ended).
    static func limit(_ call: Duration) -> Duration {
        guard let deadline = current else { return call }
        let now = ContinuousClock.now
        let start = deadline.started.withLock { started in
            if let started { return started }
            started = now
            return now
        }
        let left = start + deadline.limit - now
        return max(.zero, min(call, left))
    }
}
