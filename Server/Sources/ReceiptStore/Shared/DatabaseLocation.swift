import Foundation

/// Where the database is: `sqlite:PATH` or `postgres://USER[:PASS]@HOST:PORT/DB` (DESIGN §12).
public enum DatabaseLocation: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    /// A PostgreSQL server and database.
    public struct PostgresLocation: Sendable, Hashable {
        public var host: String
        public var port: Int
        public var user: String
        public var password: String?
        public var database: String
    }

    /// The embedded default, `./receipt-server.sqlite`.
    public static let `default` = DatabaseLocation.sqlite(path: "./receipt-server.sqlite")

    /// Parses a `--database` value. User and password may be percent-encoded.
    public init(_ text: String) throws(StoreError) {
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw .invalidDatabaseURL(text) }
            self = .sqlite(path: path)
            return
        }
        guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://"),
            let url = URLComponents(string: text),
            let host = url.host, !host.isEmpty,
            let user = url.percentEncodedUser.flatMap({ $0.removingPercentEncoding }), !user.isEmpty
        else { throw .invalidDatabaseURL(Self.redacted(text)) }
        let database = String(url.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/"), url.query == nil else { throw .invalidDatabaseURL(Self.redacted(text)) }
        self = .postgres(
            PostgresLocation(
                host: host, port: url.port ?? 5432, user: user,
                password: url.percentEncodedPassword.flatMap { $0.removingPercentEncoding },
                database: database))
    }

    /// The location without its password (for logs and messages).
    public var description: String {
        switch self {
        case .sqlite(let path): return "sqlite:\(path)"
        case .postgres(let p): return "postgres://\(p.user)@\(p.host):\(p.port)/\(p.database)"
        }
    }

    /// `host:port`, or `[host]:port` for an IPv6 address.
    public static func hostPort(_ host: String, _ port: Int) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// `text` with anything between `://` and `@` replaced, so a password never reaches a log.
    static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text.range(of: "@", options: .backwards),
            scheme.upperBound <= at.lowerBound
        else { return text }
        return text.replacingCharacters(in: scheme.upperBound ..< at.lowerBound, with: "…")
    }
}
