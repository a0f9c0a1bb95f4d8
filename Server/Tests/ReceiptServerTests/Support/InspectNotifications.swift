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
        return try await rows(
            database, sql,
            sqlite: { row in
                StoredNotificationRow(
                    uuid: row[0], type: row[1], subtype: row[2], bundleID: row[3], environment: row[4], signedMilliseconds: row[5],
                    signedPayload: row[6])
            },
            postgres: { row in
                let (uuid, type, subtype, bundle, environment, signed, payload) = try row.decode(
                    (String, String, String?, String, String, Int64, String).self)
                return StoredNotificationRow(
                    uuid: uuid, type: type, subtype: subtype, bundleID: bundle, environment: environment, signedMilliseconds: signed,
                    signedPayload: payload)
            })
    }
}
