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
    /// The database's secrets were sealed under another operator key (its key check value does
    /// not open with this one).
    case wrongSecretsKey(database: String)
    /// A database file (or its `-wal`/`-shm`) that group or others may read or write.
    case exposedFile(path: String, mode: UInt16)
    /// A command (not the server) was pointed at a SQLite file that does not exist: it creates
    /// none, so that a mistyped `--database` is noticed instead of answered from an empty database.
    case missingDatabase(path: String)
    /// Another process serves the SQLite file: it holds the lock file beside it (`holder`: that
    /// process's id, when the lock file names it).
    case databaseInUse(path: String, lockFile: String, holder: Int32?)
    /// The lock file beside the SQLite file cannot be created or locked.
    case lockFailed(lockFile: String, reason: String)
    /// No connection to the PostgreSQL server could be made (or it refused the login); `reason`
    /// is the system's or the server's, never the password.
    case unreachable(host: String, port: Int, database: String, reason: String)

    public var description: String {
        switch self {
        case .invalidDatabaseURL(let text): return "invalid database URL '\(text)': expected sqlite:PATH or postgres://USER[:PASS]@HOST:PORT/DB"
        case .closed: return "storage is closed"
        case .database(let reason): return "database error: \(reason)"
        case .schemaTooNew(let found, let known): return "database schema version \(found) is newer than this server's \(known)"
        case .wrongSecretsKey(let database):
            return "the secrets key is not the one \(database) was set up with (its key check value does not open): give that key "
                + "with --secrets-key-file or RECEIPT_SERVER_SECRETS_KEY; nothing was changed"
        case .exposedFile(let path, let mode):
            return "\(path) has mode 0\(String(mode, radix: 8)): group or others may read or write it (receipts, hashed credentials, sealed keys); "
                + "run `chmod 600 \(path)` and start again"
        case .missingDatabase(let path):
            return "no database at \(path); start the server once, or check --database"
        case .databaseInUse(let path, let lockFile, let holder):
            return "\(path) is being served by another receipt-server\(holder.map { " (process \($0))" } ?? "") holding \(lockFile): "
                + "a SQLite database belongs to one server; stop that one first, or use PostgreSQL for several instances"
        case .lockFailed(let lockFile, let reason):
            return "cannot lock \(lockFile): \(reason)"
        case .unreachable(let host, let port, let database, let reason):
            return "cannot connect to PostgreSQL at \(DatabaseLocation.hostPort(host, port)), database \(database): \(reason)"
        }
    }
}
