import Foundation
import GRDB

/// Dashboard credentials in SQLite (each edit its own write transaction).
extension SQLiteStore {
    public func dashboardTokens() async throws -> [DashboardTokenRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: DashboardTokenStatements.select).map { row in
                DashboardTokenRecord(id: row[0], sha256: Self.bytes(row[1]) ?? [], createdMilliseconds: row[2], revokedMilliseconds: row[3])
            }
        }
    }

    public func addDashboardToken(_ token: DashboardTokenRecord) async throws {
        try await writeEdit { db in
            try db.execute(sql: DashboardTokenStatements.insert, arguments: [token.id, Data(token.sha256), token.createdMilliseconds])
        }
    }

    public func revokeDashboardToken(id: String, at milliseconds: Int64) async throws -> Bool {
        try await writeEdit { db in
            try !String.fetchAll(db, sql: DashboardTokenStatements.revoke, arguments: [milliseconds, id]).isEmpty
        }
    }
}
