import Foundation
import GRDB
import PostgresNIO
import ReceiptStore

/// Records for the storage tests of the App Store Server API, built directly (no JWS is verified
/// here: the JWS text only has to name its transaction and `signedDate`).
enum SignedDataFixtures {
    static let bundleID = Synthetic.bundleID
    static let production = "Production"

    /// A transaction of `original` signed at `signed`; with `signedJWS` false, one as stored before
    /// version 6 (no JWS).
    static func transaction(
        _ id: String, original: String, signed: Int64, token: String? = nil, purchase: Int64 = 1_700_000_000_000, signedJWS: Bool = true
    ) -> NotificationTransaction {
        NotificationTransaction(
            transactionID: id, originalTransactionID: original, productID: "com.example.monthly", purchaseMilliseconds: purchase,
            signedMilliseconds: signed, json: #"{"transaction_id":"\#(id)","signed":"\#(signed)"}"#,
            serverMembers: #""in_app_ownership_type":"PURCHASED""#,
            signed: signedJWS
                ? SignedTransactionFacts(
                    jws: jws(id, signed), type: "Auto-Renewable Subscription", subscriptionGroupIdentifier: "21000001",
                    expiresMilliseconds: purchase + signed % 1_000_000, revocationMilliseconds: signed % 2 == 0 ? nil : signed,
                    inAppOwnershipType: "PURCHASED", appAccountToken: token)
                : nil)
    }

    /// The JWS text `transaction(_:…)` gives transaction `id` signed at `signed`.
    static func jws(_ id: String, _ signed: Int64) -> String { "eyJ.\(id).\(signed)" }

    /// A renewal info of `original` signed at `signed`.
    static func renewal(_ original: String, signed: Int64, signedJWS: Bool = true) -> RenewalInfoRecord {
        RenewalInfoRecord(
            originalTransactionID: original, signedMilliseconds: signed, json: #"{"original_transaction_id":"\#(original)","s":\#(signed)}"#,
            signed: signedJWS
                ? SignedRenewalFacts(
                    jws: "eyJ.renewal.\(original).\(signed)", isInBillingRetryPeriod: signed % 2 == 1, gracePeriodExpiresMilliseconds: signed + 5)
                : nil)
    }

    /// A notification of `bundleID` in `environment`.
    static func notification(
        _ uuid: String, type: String = "DID_RENEW", subtype: String? = nil, signed: Int64 = 1_700_000_000_000,
        transaction: NotificationTransaction? = nil, renewal: RenewalInfoRecord? = nil, environment: String = production
    ) -> NotificationRecord {
        NotificationRecord(
            uuid: uuid, type: type, subtype: subtype, signedMilliseconds: signed, signedPayload: "payload.\(uuid)", bundleID: bundleID,
            environment: environment, transaction: transaction, renewalInfo: renewal)
    }

    /// Opens `database`'s store, runs `body` with it, and shuts it down.
    static func with<T: Sendable>(_ database: TestDatabase, _ body: @Sendable (any ReceiptStorage) async throws -> T) async throws -> T {
        try await Stores.with(DatabaseLocation(database.url), secrets: TestSecrets.key, logger: TestServer.logger, body)
    }

    /// Runs `statements` on `database` outside any store (rows a store could not write as chosen).
    static func execute(_ database: TestDatabase, _ statements: [String]) async throws {
        switch database.backend {
        case .sqlite:
            let queue = try DatabaseQueue(path: database.sqlitePath!)
            try await queue.write { db in
                for sql in statements { try db.execute(sql: sql) }
            }
            try queue.close()
        case .postgres:
            try await Inspect.postgres(database) { client in
                for sql in statements { _ = try await client.query(PostgresQuery(unsafeSQL: sql)) }
            }
        }
    }
}
