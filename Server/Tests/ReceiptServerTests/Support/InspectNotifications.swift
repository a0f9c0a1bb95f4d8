import Foundation
import GRDB
import PostgresNIO
import ReceiptStore
import Synchronization

/// A `notifications` row, read from outside the server.
struct StoredNotificationRow: Sendable, Equatable {
    let uuid: String
    let type: String
    let subtype: String?
    let bundleID: String
    let environment: String
    let signedMilliseconds: Int64
    let signedPayload: String
}

extension Inspect {
    static let notificationColumns = "notification_uuid, notification_type, subtype, bundle_id, environment, signed_date_ms, signed_payload"

    /// Every stored notification, by UUID.
    static func notifications(_ database: TestDatabase) async throws -> [StoredNotificationRow] {
        let sql = "SELECT \(notificationColumns) FROM notifications ORDER BY notification_uuid"
        switch database.backend {
        case .sqlite:
            let queue = try DatabaseQueue(path: database.sqlitePath!)
            defer { try? queue.close() }
            return try await queue.read { db in
                try Row.fetchAll(db, sql: sql).map { row in
                    StoredNotificationRow(
                        uuid: row[0], type: row[1], subtype: row[2], bundleID: row[3], environment: row[4],
                        signedMilliseconds: row[5], signedPayload: row[6])
                }
            }
        case .postgres:
            let rows = Mutex<[StoredNotificationRow]>([])
            try await postgres(database) { client in
                for try await (uuid, type, subtype, bundle, environment, signed, payload) in try await client.query(PostgresQuery(unsafeSQL: sql))
                    .decode((String, String, String?, String, String, Int64, String).self)
                {
                    rows.withLock {
                        $0.append(
                            StoredNotificationRow(
                                uuid: uuid, type: type, subtype: subtype, bundleID: bundle,
                                environment: environment, signedMilliseconds: signed, signedPayload: payload))
                    }
                }
            }
            return rows.withLock { $0 }
        }
    }
}
