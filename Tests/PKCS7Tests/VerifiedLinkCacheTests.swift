import CryptoPrimitives
import Foundation
import PKCS7
import X509Certificates
import ReceiptTestSupport
import Synchronization
import Testing
import TestHelpers

/// A `VerifiedLinkStore` that forwards to a real cache and counts what the verifier asks.
final class CountingLinkStore: VerifiedLinkStore {
    struct Counts: Equatable {
        var lookups = 0
        var hits = 0
        var inserts = 0
    }

    let inner: VerifiedLinkCache
    private let state = Mutex<(counts: Counts, inserted: [CertificateLink])>((Counts(), []))

    init(_ inner: VerifiedLinkCache = VerifiedLinkCache()) { self.inner = inner }

    func contains(_ link: CertificateLink) -> Bool {
        let hit = inner.contains(link)
        state.withLock { state in
            state.counts.lookups += 1
            if hit { state.counts.hits += 1 }
        }
        return hit
    }

    func insert(_ link: CertificateLink) {
        state.withLock { state in
            state.counts.inserts += 1
            state.inserted.append(link)
        }
        inner.insert(link)
    }

    func signingKey(of signer: Certificate) -> ECDSAPublicKey? { inner.signingKey(of: signer) }

    func insertSigningKey(_ key: ECDSAPublicKey, of signer: Certificate) { inner.insertSigningKey(key, of: signer) }

    /// Counts since the last call.
    func take() -> Counts {
        state.withLock { state in
            defer { state.counts = Counts() }
            return state.counts
        }
    }

    var inserted: [CertificateLink] { state.withLock { $0.inserted } }
}

@Suite struct VerifiedLinkCacheTests {
    typealias S = Synthetic

    /// A signature check happens exactly when a lookup misses (the link is then inserted if it
    /// verified), so misses = signature checks over certificate links.
    @Test func secondVerificationWithSharedCacheChecksFewerSignatures() throws {
        let store = CountingLinkStore()
        let verifier = SignedDataVerifier(policy: S.policy, linkStore: store)
        _ = try verifier.verify(S.receipt, at: S.time)
        let first = store.take()
        #expect(first == .init(lookups: 2, hits: 0, inserts: 2))   // leaf ← intermediate, intermediate ← root
        #expect(store.inner.count == 2)

        _ = try verifier.verify(S.receipt, at: S.time)
        let second = store.take()
        #expect(second == .init(lookups: 2, hits: 2, inserts: 0))
        #expect(second.lookups - second.hits < first.lookups - first.hits)

        // Another receipt from the same chain (a different payload, same certificates) hits too.
        let other = try SignedData(
            berEncoded: TestSignedData(
                content: S.payload + [0x00], signer: S.chain.leaf, signerIssuerName: S.chain.intermediate.subjectName,
                certificates: [S.leafDER, S.intermediateDER, S.rootDER]
            ).encoded())
        _ = try verifier.verify(other, at: S.time)
        #expect(store.take() == .init(lookups: 2, hits: 2, inserts: 0))
    }

    /// A link is remembered only once verified, and only for the exact certificates: a forged
    /// intermediate with the same name and key identifier is not let through by the cache.
    @Test func cacheDoesNotLetAForgedLinkThrough() throws {
        let store = CountingLinkStore()
        let verifier = SignedDataVerifier(policy: S.policy, linkStore: store)
        _ = try verifier.verify(S.receipt, at: S.time)
        _ = store.take()

        // The same leaf, corrupted in its signature: a new link, checked, and refused.
        let leaf = try Certificate(derEncoded: S.leafDER)
        var corrupted = S.leafDER
        corrupted[leaf.signatureRange.lowerBound + 1] ^= 0x01
        let data = S.receipt(certificates: [corrupted, S.intermediateDER, S.rootDER])
        #expect(throws: VerificationError.signatureInvalid(subject: name(S.chain.leaf))) {
            _ = try S.verify(data, linkStore: store)
        }
        let counts = store.take()
        #expect(counts.inserts == 0)
        #expect(counts.hits == 0)
        #expect(store.inner.count == 2)
        // Failed links are not remembered: asking again checks again.
        #expect(throws: VerificationError.self) { _ = try S.verify(data, linkStore: store) }
        #expect(store.take().hits == 0)
    }

    /// Links from a few different chains, collected from what the verifier inserts.
    static let distinctLinks: [CertificateLink] = {
        let store = CountingLinkStore(VerifiedLinkCache(capacity: 100))
        _ = try? SignedDataVerifier(policy: S.policy, linkStore: store).verify(S.receipt, at: S.time)
        // The same intermediate re-issued with another serial: two more links (leaf and root side).
        var reissued = S.chain.intermediate
        reissued.serialNumber = [0x10, 0x02]
        _ = try? S.verify(S.receipt(certificates: [S.leafDER, reissued.signed(by: S.chain.root), S.rootDER]), linkStore: store)
        return store.inserted
    }()

    @Test func capacityBoundEvictsTheOldest() throws {
        let links = Self.distinctLinks
        try #require(links.count == 4)
        #expect(Set(links).count == 4)
        let cache = VerifiedLinkCache(capacity: 2)
        #expect(cache.capacity == 2)
        cache.insert(links[0])
        cache.insert(links[1])
        #expect(cache.count == 2)
        cache.insert(links[1])   // already present: no eviction
        #expect(cache.contains(links[0]) && cache.contains(links[1]))
        cache.insert(links[2])   // evicts links[0], the oldest
        #expect(cache.count == 2)
        #expect(!cache.contains(links[0]))
        #expect(cache.contains(links[1]) && cache.contains(links[2]))
        cache.insert(links[3])   // evicts links[1]
        #expect(!cache.contains(links[1]))
        #expect(cache.contains(links[2]) && cache.contains(links[3]))
        cache.insert(links[0])   // evicts links[2]
        #expect(cache.count == 2)
        #expect(cache.contains(links[3]) && cache.contains(links[0]))
        #expect(!cache.contains(links[2]))
    }

    /// With capacity 1 a verification still succeeds; the cache keeps the last link.
    @Test func verifierWorksWithATinyCache() throws {
        let cache = VerifiedLinkCache(capacity: 1)
        let verifier = SignedDataVerifier(policy: S.policy, linkStore: cache)
        for _ in 0 ..< 3 { _ = try verifier.verify(S.receipt, at: S.time) }
        #expect(cache.count == 1)
    }

    /// Many tasks verify through one cache while others insert and look up: every verification
    /// succeeds, the bound holds, and the final content is consistent.
    @Test func concurrentUseIsSafe() async throws {
        let cache = VerifiedLinkCache(capacity: 3)
        let links = Self.distinctLinks
        let receipt = S.receipt
        let verifier = SignedDataVerifier(policy: S.policy, linkStore: cache)
        let results = await withTaskGroup(of: Bool.self) { group in
            for task in 0 ..< 24 {
                group.addTask {
                    if task % 3 == 0 {
                        for round in 0 ..< 200 {
                            cache.insert(links[(task + round) % links.count])
                            _ = cache.contains(links[round % links.count])
                            if cache.count > 3 { return false }
                        }
                        return true
                    }
                    return (try? verifier.verify(receipt, at: S.time)) != nil
                }
            }
            var all: [Bool] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 24)
        #expect(results.allSatisfy { $0 })
        #expect(cache.count <= 3)
        #expect(cache.count == links.filter { cache.contains($0) }.count)
        // Still usable afterwards.
        _ = try verifier.verify(S.receipt, at: S.time)
    }

    @Test(.enabled(if: Fixtures.shouldRun))
    func sharedCacheAcrossRealReceipts() throws {
        // production and sandbox-g5 share WWDR G5 ← Apple Root CA: the second verification finds
        // that link in the cache and checks only its own leaf.
        let store = CountingLinkStore()
        let verifier = SignedDataVerifier(policy: .appStore, linkStore: store)
        for name in ["production", "sandbox-g5"] {
            let signedData = try SignedData(berEncoded: Fixtures.bytes("receipts/\(name).der"))
            _ = try verifier.verify(signedData, at: FixtureReceiptVerificationTests.creationDate(name))
        }
        #expect(store.take() == .init(lookups: 4, hits: 1, inserts: 3))
    }
}
