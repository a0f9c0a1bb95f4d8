import Foundation
import Testing

@testable import ReceiptStore

/// The SQLite store keeps a customer once, whichever of its transaction ids is asked about
/// (issue 33: a 2,000-transaction customer read through 60 ids took 60 copies and the cache's
/// whole 256 MiB); each id asked costs only its originals' entry.
@Suite struct CustomerCacheTests {
    typealias F = SignedDataFixtures

    @Test func aCustomerIsKeptOnceWhicheverIdIsAsked() async throws {
        let database = try await TestDatabase.make(.sqlite)
        try await F.with(database) { store in
            let sqlite = try #require(store as? SQLiteStore)
            let original = "860000000"
            let ids = (0 ..< 200).map { String(860_000_000 + $0) }
            for (index, id) in ids.enumerated() {
                try await store.save(
                    F.notification("big-\(index)", transaction: F.transaction(id, original: original, signed: 1_000 + Int64(index))))
            }
            var answers: [CustomerRecords] = []
            for id in ids.prefix(60) {
                let customer = try #require(try await store.customer(bundleID: F.bundleID, environment: F.production, transactionID: id))
                answers.append(customer)
            }
            #expect(Set(answers).count == 1 && answers[0].transactions.count == 200)
            #expect(sqlite.caches.customers.count == 1, "one customer, not one per id asked")
            #expect(sqlite.caches.originals.count == 60)
            // Asked again: the same answer from the caches.
            let again = try await store.customer(bundleID: F.bundleID, environment: F.production, transactionID: ids[59])
            #expect(again == answers[0] && sqlite.caches.customers.count == 1)
        }
    }
}
