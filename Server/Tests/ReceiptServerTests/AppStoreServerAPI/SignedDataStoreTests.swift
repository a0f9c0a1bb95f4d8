import Foundation
import ReceiptStore
import Testing

/// The App Store Server API's storage on both backends: signed transactions and renewal infos
/// kept by the notifications' rule (from notifications and from posted transactions), and a
/// customer's records linked by original transaction id and app account token.
@Suite struct SignedDataStoreTests {
    typealias F = SignedDataFixtures

    /// The customer of `id`, which must exist.
    static func customer(_ store: any ReceiptStorage, _ id: String, environment: String = F.production) async throws -> CustomerRecords {
        try #require(try await store.customer(bundleID: F.bundleID, environment: environment, transactionID: id))
    }

    /// Whatever the order of arrival (one at a time or in one batch), the JWS columns are those of
    /// the latest `signedDate`, for transactions and renewal infos; `changed_ms` moves only when
    /// the row is replaced.
    @Test(arguments: TestDatabase.backends)
    func latestSignedDateWinsForSignedColumns(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let orders: [[Int64]] = [[2_000, 3_001, 1_001], [3_001, 1_001, 2_000], [1_001, 2_000, 3_001]]
        try await F.with(database) { store in
            for (index, order) in orders.enumerated() {
                let id = "81000000\(index)"
                var changed: Int64?
                for signed in order {
                    let before = Int64(Date().timeIntervalSince1970 * 1000)
                    try await Task.sleep(for: .milliseconds(3))
                    try await store.save(
                        F.notification(
                            "uuid-\(index)-\(signed)", transaction: F.transaction(id, original: id, signed: signed),
                            renewal: F.renewal(id, signed: signed)))
                    let records = try await Self.customer(store, id)
                    let stored = try #require(records.transactions.first)
                    let latest = order.prefix { $0 != signed }.allSatisfy { $0 < signed }
                    if latest {
                        #expect(stored.changedMilliseconds >= before)
                    } else {
                        #expect(stored.changedMilliseconds == changed)
                    }
                    changed = stored.changedMilliseconds
                }
                let records = try await Self.customer(store, id)
                let expected = F.transaction(id, original: id, signed: 3_001)
                #expect(records.transactions.count == 1)
                #expect(records.transactions.first?.facts == expected.signed)
                #expect(records.transactions.first?.signedMilliseconds == 3_001)
                #expect(
                    records.renewals == [
                        StoredSignedRenewal(originalTransactionID: id, signedMilliseconds: 3_001, facts: F.renewal(id, signed: 3_001).signed!)
                    ])
            }
            // One batch: the three submitted together.
            let id = "8100000099"
            try await withThrowingTaskGroup(of: Void.self) { group in
                for signed: Int64 in [2_000, 3_001, 1_001] {
                    group.addTask {
                        try await store.save(
                            F.notification(
                                "batch-\(signed)", transaction: F.transaction(id, original: id, signed: signed),
                                renewal: F.renewal(id, signed: signed)))
                    }
                }
                try await group.waitForAll()
            }
            let records = try await Self.customer(store, id)
            #expect(records.transactions.map(\.facts.jws) == [F.jws(id, 3_001)])
            #expect(records.renewals.map(\.facts.jws) == ["eyJ.renewal.\(id).3001"])
        }
    }

    /// A posted transaction is stored like a notification's (the latest `signedDate` wins) with no
    /// notification row, durable when `save` returns, and seen at once by `customer` and by the
    /// verifyReceipt history (SQLite's cached history is dropped).
    @Test(arguments: TestDatabase.backends)
    func postedTransactionIsStoredAndSeen(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let original = "8200000001", renewal = "8200000002"
        try await F.with(database) { store in
            try await store.save(F.notification("posted-1", transaction: F.transaction(original, original: original, signed: 1_000)))
            let before = try await store.history(bundleID: F.bundleID, environment: F.production, originalTransactionIDs: [original])
            #expect(before.transactions.map(\.transactionID) == [original])

            let posted = F.transaction(renewal, original: original, signed: 2_000, purchase: 1_700_100_000_000)
            try await store.save(PostedTransaction(bundleID: F.bundleID, environment: F.production, transaction: posted))
            // An earlier signedDate changes nothing.
            let stale = F.transaction(original, original: original, signed: 500)
            try await store.save(PostedTransaction(bundleID: F.bundleID, environment: F.production, transaction: stale))

            let records = try await Self.customer(store, renewal)
            #expect(Set(records.transactions.map(\.facts.jws)) == [F.jws(original, 1_000), F.jws(renewal, 2_000)])
            let after = try await store.history(bundleID: F.bundleID, environment: F.production, originalTransactionIDs: [original])
            #expect(after.transactions.map(\.transactionID) == [renewal, original])
            #expect(after.transactions.first?.json == posted.json)
            #expect(try await store.counts().notifications == 1)

            // A later post replaces it.
            let later = F.transaction(renewal, original: original, signed: 4_000, purchase: 1_700_100_000_000)
            try await store.save(PostedTransaction(bundleID: F.bundleID, environment: F.production, transaction: later))
            let replaced = try await Self.customer(store, original)
            #expect(replaced.transactions.first { $0.transactionID == renewal }?.facts == later.signed)
            // Another environment is another customer.
            #expect(try await store.customer(bundleID: F.bundleID, environment: "Sandbox", transactionID: renewal) == nil)
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 0, transactions: 2, notifications: 1))
    }

    /// A: two transactions, the second with token T1. B: T1 and (on another transaction) T2.
    /// C: T2. D: T3 alone. E: T1 but no JWS (as before version 6). Each original is its own
    /// customer, whichever of its transaction ids is asked about: a shared `appAccountToken` (which
    /// the app chooses) links nothing (DESIGN §13). E and unknown ids are no customer.
    @Test(arguments: TestDatabase.backends)
    func customerIsTheOriginalTransactionFamilyOnly(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let rows: [NotificationTransaction] = [
            F.transaction("8300000001", original: "8300000001", signed: 1_000),
            F.transaction("8300000002", original: "8300000001", signed: 1_000, token: "T1"),
            F.transaction("8300000011", original: "8300000011", signed: 1_000, token: "T1"),
            F.transaction("8300000012", original: "8300000011", signed: 1_000, token: "T2"),
            F.transaction("8300000021", original: "8300000021", signed: 1_000, token: "T2"),
            F.transaction("8300000031", original: "8300000031", signed: 1_000, token: "T3"),
            F.transaction("8300000041", original: "8300000041", signed: 1_000, token: "T1", signedJWS: false),
        ]
        try await F.with(database) { store in
            for (index, row) in rows.enumerated() {
                try await store.save(F.notification("link-\(index)", transaction: row))
            }
            try await store.save(F.notification("link-renewal-a", renewal: F.renewal("8300000001", signed: 1_000)))
            try await store.save(F.notification("link-renewal-b", renewal: F.renewal("8300000011", signed: 1_000, signedJWS: false)))
            // The same ids in the sandbox are not this customer's.
            try await store.save(
                F.notification(
                    "link-sandbox", transaction: F.transaction("8300000051", original: "8300000051", signed: 1_000, token: "T1"),
                    environment: "Sandbox"))

            let families: [(asked: [String], transactions: Set<String>, renewals: [String])] = [
                (["8300000001", "8300000002"], ["8300000001", "8300000002"], ["8300000001"]),
                (["8300000011", "8300000012"], ["8300000011", "8300000012"], []),
                (["8300000021"], ["8300000021"], []),
            ]
            for family in families {
                for asked in family.asked {
                    let records = try await Self.customer(store, asked)
                    #expect(Set(records.transactions.map(\.transactionID)) == family.transactions, "asked \(asked)")
                    #expect(records.renewals.map(\.originalTransactionID) == family.renewals, "asked \(asked)")
                }
            }
            let d = try await Self.customer(store, "8300000031")
            #expect(d.transactions.map(\.transactionID) == ["8300000031"] && d.renewals.isEmpty)
            #expect(d.transactions.first?.facts.appAccountToken == "T3")
            #expect(try await store.customer(bundleID: F.bundleID, environment: F.production, transactionID: "8300000041") == nil)
            #expect(try await store.customer(bundleID: F.bundleID, environment: F.production, transactionID: "8399999999") == nil)
            #expect(try await store.customer(bundleID: "com.example.other", environment: F.production, transactionID: "8300000001") == nil)
            // The unsigned row is still the verifyReceipt side's.
            let history = try await store.history(bundleID: F.bundleID, environment: F.production, originalTransactionIDs: ["8300000041"])
            #expect(history.transactions.map(\.transactionID) == ["8300000041"])
            let sandbox = try await Self.customer(store, "8300000051", environment: "Sandbox")
            #expect(sandbox.transactions.map(\.transactionID) == ["8300000051"])
        }
    }

    /// Histories of 1 to 9 originals (whose SQLite `IN` lists are padded to a power of two by
    /// repeating the last id, so that their statements can be cached) return each transaction
    /// exactly once; a customer read returns its own original's rows once, whatever account token
    /// the others share with it.
    @Test(arguments: TestDatabase.backends)
    func paddedListsReturnEachRowOnce(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await F.with(database) { store in
            for size in 1 ... 9 {
                let originals = (0 ..< size).map { "84000\(size)\(String(format: "%03d", $0))" }
                for original in originals {
                    try await store.save(
                        F.notification(
                            "pad-\(original)", transaction: F.transaction(original, original: original, signed: 1_000, token: "P\(size)"),
                            renewal: F.renewal(original, signed: 1_000)))
                }
                for asked in [originals[0], originals[size - 1]] {
                    let records = try await Self.customer(store, asked)
                    #expect(records.transactions.map(\.transactionID) == [asked], "\(size) originals, asked \(asked)")
                    #expect(records.renewals.map(\.originalTransactionID) == [asked], "\(size) originals, asked \(asked)")
                }
                let history = try await store.history(bundleID: F.bundleID, environment: F.production, originalTransactionIDs: originals)
                #expect(history.transactions.map(\.transactionID).sorted() == originals, "\(size) originals")
            }
        }
    }

    /// A customer read again answers every commit since (the SQLite store keeps customers between
    /// commits): a renewal, a posted transaction, a newer renewal info, asked by either id; a
    /// commit about someone else leaves the answer as it was.
    @Test(arguments: TestDatabase.backends)
    func aRepeatedReadSeesEveryLaterCommit(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await F.with(database) { store in
            let original = "850000001"
            try await store.save(
                F.notification(
                    "c-1", transaction: F.transaction(original, original: original, signed: 1_000), renewal: F.renewal(original, signed: 1_000)))
            let first = try await Self.customer(store, original)
            #expect(try await Self.customer(store, original) == first)
            try await store.save(F.notification("c-2", transaction: F.transaction("850000002", original: original, signed: 2_000)))
            #expect(try await Self.customer(store, original).transactions.map(\.transactionID).sorted() == [original, "850000002"])
            let posted = F.transaction("850000003", original: original, signed: 3_000)
            try await store.save(PostedTransaction(bundleID: F.bundleID, environment: F.production, transaction: posted))
            for asked in [original, "850000002", "850000003"] {
                let records = try await Self.customer(store, asked)
                #expect(records.transactions.map(\.transactionID).sorted() == [original, "850000002", "850000003"], "asked \(asked)")
            }
            try await store.save(F.notification("c-4", renewal: F.renewal(original, signed: 4_001)))
            let renewed = try await Self.customer(store, original)
            #expect(renewed.renewals.map(\.signedMilliseconds) == [4_001])
            try await store.save(
                F.notification("c-5", transaction: F.transaction("850000009", original: "850000009", signed: 5_000)))
            #expect(try await Self.customer(store, original) == renewed)
        }
    }
}
