/// Why the storage layer could not do what was asked. Messages never hold receipt bytes or secrets.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// `--database` is neither `sqlite:PATH` nor `postgres://USER[:PASS]@HOST:PORT/DB`.
    case invalidDatabaseURL(String)
    /// The store is shutting down (or has shut down) and takes no more writes.
    case closed
    /// The database failed; `reason` is the driver's message.
    case database(String)
    /// The database holds a schema version newer than this program knows.
    case schemaTooNew(found: Int, known: Int)

    public var description: String {
        switch self {
        case .invalidDatabaseURL(let text): return "invalid database URL '\(text)': expected sqlite:PATH or postgres://USER[:PASS]@HOST:PORT/DB"
        case .closed: return "storage is closed"
        case .database(let reason): return "database error: \(reason)"
        case .schemaTooNew(let found, let known): return "database schema version \(found) is newer than this server's \(known)"
        }
    }
}
