import ReceiptStore
import Testing

/// Storage of an import (both backends): its progress (schema version 10) recorded, replaced and
/// read per app, environment and transaction id; and a renewal info saved beside a posted
/// transaction, kept by the notifications' rule (the latest `signedDate` wins, whatever the order).
@Suite struct ImportStorageTests {
    typealias D = SignedDataFixtures

    @Test(arguments: TestDatabase.backends)
    func progressIsRecordedReplacedAndReadPerKey(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await D.with(database) { store in
            let key = ImportKey(bundleID: D.bundleID, environment: "Production", transactionID: "1000")
            #expect(try await store.importProgress(key) == nil)
            try await store.recordImportProgress(key, ImportProgress(revision: "page-1", completedMilliseconds: nil))
            #expect(try await store.importProgress(key) == ImportProgress(revision: "page-1", completedMilliseconds: nil))
            #expect(try await store.importProgress(key)?.isComplete == false)
            try await store.recordImportProgress(key, ImportProgress(revision: "page-2", completedMilliseconds: 1_700_000_000_000))
            #expect(try await store.importProgress(key) == ImportProgress(revision: "page-2", completedMilliseconds: 1_700_000_000_000))
            // Another environment, app or id is another import.
            for other in [
                ImportKey(bundleID: D.bundleID, environment: "Sandbox", transactionID: "1000"),
                ImportKey(bundleID: "com.example.other", environment: "Production", transactionID: "1000"),
                ImportKey(bundleID: D.bundleID, environment: "Production", transactionID: "1001"),
            ] {
                #expect(try await store.importProgress(other) == nil)
            }
            try await store.recordImportProgress(key, ImportProgress(revision: nil, completedMilliseconds: 5))
            #expect(try await store.importProgress(key) == ImportProgress(revision: nil, completedMilliseconds: 5))
        }
    }

    @Test(arguments: TestDatabase.backends)
    func aRenewalInfoBesideAPostedTransactionKeepsTheLatest(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let renewals = try await D.with(database) { store in
            let transaction = D.transaction("2000", original: "2000", signed: 1_700_000_000_000)
            for signed: Int64 in [1_700_000_000_500, 1_700_000_000_900, 1_700_000_000_100] {
                try await store.save(
                    PostedTransaction(
                        bundleID: D.bundleID, environment: "Production", transaction: transaction, renewalInfo: D.renewal("2000", signed: signed)))
            }
            try await store.save(PostedTransaction(bundleID: D.bundleID, environment: "Production", transaction: transaction))
            return try await store.customer(bundleID: D.bundleID, environment: "Production", transactionID: "2000")?.renewals
        }
        #expect(renewals?.map(\.facts.jws) == ["eyJ.renewal.2000.1700000000900"])
    }
}
