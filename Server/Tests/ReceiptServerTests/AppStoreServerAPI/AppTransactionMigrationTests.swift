import Foundation
import ReceiptStore
import Testing

/// Schema version 9 on a database a version-8 server made: `app_transactions` is added, and the
/// store's rule holds on both backends: one row per app, environment and `appTransactionId`, the
/// later `signedDate` (then the greater token) winning whatever the order of arrival.
@Suite struct AppTransactionMigrationTests {
    typealias F = SignedDataFixtures

    static func record(_ id: String, signed: Int64, jws: String, environment: String = F.production) -> AppTransactionRecord {
        AppTransactionRecord(bundleID: F.bundleID, environment: environment, appTransactionID: id, signedMilliseconds: signed, jws: jws)
    }

    @Test(arguments: TestDatabase.backends)
    func upgradesAVersion8DatabaseAndKeepsTheLaterToken(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await OlderSchema.make(database, version: 8, rows: [try OlderSchema.secretsCheck(database)])
        try await F.with(database) { store in
            let id = "704000000000000001"
            #expect(try await store.appTransactions(bundleID: F.bundleID, environment: F.production, appTransactionIDs: [id]).isEmpty)
            #expect(try await store.appTransactions(bundleID: F.bundleID, environment: F.production, appTransactionIDs: []).isEmpty)
            try await store.save(Self.record(id, signed: 2_000, jws: "eyJ.app.b"))
            try await store.save(Self.record(id, signed: 2_000, jws: "eyJ.app.b"))
            try await store.save(Self.record(id, signed: 1_000, jws: "eyJ.app.z"))   // earlier: kept out
            try await store.save(Self.record(id, signed: 2_000, jws: "eyJ.app.a"))   // same date, smaller token: kept out
            try await store.save(Self.record(id, signed: 2_000, jws: "eyJ.app.c"))   // same date, greater token: replaces
            try await store.save(Self.record(id, signed: 500, jws: "eyJ.app.sandbox", environment: "Sandbox"))
            let read = try await store.appTransactions(
                bundleID: F.bundleID, environment: F.production, appTransactionIDs: [id, "704000000000000009"])
            #expect(read == [StoredAppTransaction(appTransactionID: id, jws: "eyJ.app.c")])
            #expect(
                try await store.appTransactions(bundleID: F.bundleID, environment: "Sandbox", appTransactionIDs: [id]).map(\.jws) == [
                    "eyJ.app.sandbox"
                ])
            #expect(try await store.appTransactions(bundleID: "com.example.other", environment: F.production, appTransactionIDs: [id]).isEmpty)
        }
        #expect(try await InspectAppTransactions.rows(database).count == 2)
    }
}
