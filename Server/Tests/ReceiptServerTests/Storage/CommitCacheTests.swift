import Testing

@testable import ReceiptStore

/// The SQLite store's read cache: a value read before a commit is never kept, an invalidation
/// forgets everything, and the weight bound holds whatever is inserted.
@Suite struct CommitCacheTests {
    @Test func aValueReadBeforeACommitIsNotKept() {
        let cache = CommitCache<String, Int>(capacity: 10)
        let (missing, generation) = cache.lookup("a")
        #expect(missing == nil)
        cache.invalidate()
        cache.insert(1, for: "a", readAt: generation)
        #expect(cache.lookup("a").value == nil, "read at the old generation: dropped")
        let (_, current) = cache.lookup("a")
        cache.insert(2, for: "a", readAt: current)
        #expect(cache.lookup("a").value == 2)
    }

    @Test func anInvalidationForgetsEveryValue() {
        let cache = CommitCache<String, Int>(capacity: 10)
        for key in ["a", "b", "c"] { cache.insert(1, for: key, readAt: cache.lookup(key).generation) }
        #expect(cache.count == 3)
        cache.invalidate()
        #expect(cache.count == 0)
        #expect(["a", "b", "c"].allSatisfy { cache.lookup($0).value == nil })
    }

    @Test func theWeightNeverPassesTheCapacity() {
        let cache = CommitCache<Int, Int>(capacity: 100) { $0 }
        let generation = cache.lookup(0).generation
        cache.insert(101, for: 0, readAt: generation)
        #expect(cache.lookup(0).value == nil, "heavier than the whole cache: not cached")
        for key in 1 ... 3 { cache.insert(40, for: key, readAt: generation) }
        // 40 + 40 fit; the third 40 does not, and what is cached stays until the next commit.
        #expect(cache.count == 2)
        #expect(cache.lookup(1).value == 40 && cache.lookup(2).value == 40)
        #expect(cache.lookup(3).value == nil)
        cache.insert(20, for: 4, readAt: generation)
        #expect(cache.lookup(4).value == 20, "20 more still fit")
        cache.invalidate()
        let next = cache.lookup(3).generation
        cache.insert(40, for: 3, readAt: next)
        #expect(cache.lookup(3).value == 40, "a commit empties the cache and makes room")
    }

    @Test func customersWeighTheirTokens() {
        let caches = ReadCaches()
        let facts = SignedTransactionFacts(
            jws: String(repeating: "x", count: 10_000), type: "Consumable", subscriptionGroupIdentifier: nil, expiresMilliseconds: nil,
            revocationMilliseconds: nil, inAppOwnershipType: nil, appAccountToken: nil)
        let transaction = StoredSignedTransaction(
            transactionID: "1", originalTransactionID: "1", productID: "p", purchaseMilliseconds: 0, signedMilliseconds: 0,
            changedMilliseconds: 0, facts: facts)
        let key = ReadCaches.CustomerKey(bundleID: "b", environment: "Production", originalTransactionIDs: ["1"])
        let heavy = CustomerRecords(transactions: Array(repeating: transaction, count: 27_000), renewals: [])
        caches.customers.insert(heavy, for: key, readAt: caches.customers.lookup(key).generation)
        #expect(caches.customers.lookup(key).value == nil, "277 MB of tokens is more than the 256 MiB the cache holds")
        let light = CustomerRecords(transactions: [transaction], renewals: [])
        caches.customers.insert(light, for: key, readAt: caches.customers.lookup(key).generation)
        #expect(caches.customers.lookup(key).value == light)
        caches.invalidate()
        #expect(caches.customers.lookup(key).value == nil)
    }
}
