import Foundation
import GRDB
import PostgresNIO
import Synchronization

/// `receipt-server apikey …` and `app …` run as processes, and the database read whole.
enum CommandLineRegistry {
    /// Runs `receipt-server ARGUMENTS --database URL`; the JSON it printed (exit status 0 required).
    static func run(_ database: TestDatabase, _ arguments: [String]) async throws -> [String: Any] {
        let (status, output) = try await LiveServer.run(arguments + ["--database", database.url])
        guard status == 0 else { throw UnexpectedAnswer(description: "\(arguments) exited \(status): \(output)") }
        return try JSONAnswer.object(Data(output.utf8))
    }

    /// Runs a `list` command; the JSON array it printed.
    static func list(_ database: TestDatabase, _ arguments: [String]) async throws -> [[String: Any]] {
        let (status, output) = try await LiveServer.run(arguments + ["--database", database.url])
        guard status == 0, let array = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] else {
            throw UnexpectedAnswer(description: "\(arguments) exited \(status): \(output)")
        }
        return array
    }

    /// Every byte the database keeps, as text: the SQLite file with its WAL, or every row of every
    /// table of the PostgreSQL database as JSON.
    static func everythingStored(_ database: TestDatabase) async throws -> String {
        if let path = database.sqlitePath {
            return ["", "-wal", "-shm"].compactMap { FileManager.default.contents(atPath: path + $0) }
                .map { String(decoding: $0, as: Unicode.ASCII.self) }.joined()
        }
        let text = Mutex("")
        try await Inspect.postgres(database) { client in
            var tables: [String] = []
            for try await name in try await client.query("SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public'")
                .decode(String.self)
            {
                tables.append(name)
            }
            for table in tables {
                for try await row in try await client.query(PostgresQuery(unsafeSQL: "SELECT row_to_json(t)::text FROM \(table) t")).decode(
                    String.self)
                {
                    text.withLock { $0 += row + "\n" }
                }
            }
        }
        return text.withLock { $0 }
    }
}
