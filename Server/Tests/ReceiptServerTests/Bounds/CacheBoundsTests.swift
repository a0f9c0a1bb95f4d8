import Foundation
import HummingbirdTesting
import NIOCore
import ReceiptServer
@testable import receipt_server
@testable import ReceiptService
import Testing
import X509Certificates

/// The verification cache in bytes as well as entries, and refusals kept apart (SHA-256 only),
/// so that junk never evicts an authentic verdict.
@Suite struct CacheBoundsTests {
    static let verifier: ReceiptVerifier = {
        ReceiptVerifier(roots: [try! TrustAnchor(derEncoded: Synthetic.chain.rootCertificate)])
    }()

    static func key(_ bytes: [UInt8]) -> VerificationCache.Key {
        VerificationCache.Key(sha256: ReceiptVerifier.sha256(bytes), context: .appStoreOnly)
    }

    static func entry(_ bytes: [UInt8]) -> VerificationCache.Entry {
        VerificationCache.Entry(
            bytes: bytes, verdict: verifier.verify(bytes, context: .appStoreOnly),
            stored: false)
    }

    /// The consumable receipt with its transaction id (in the signed content) replaced by
    /// another of the same length: it parses, and it is not authentic.
    static func tampered(_ bytes: [UInt8], _ index: Int) -> [UInt8] {
        var copy = bytes
        let id = Array("5000000002".utf8)
        guard let start = copy.indices.first(where: { copy[$0...].starts(with: id) }) else { return copy }
        copy.replaceSubrange(start ..< start + id.count, with: Array(String(6_000_000_000 + index).utf8))
        return copy
    }

    /// Entries leave, oldest first, once their bytes pass the byte bound, whatever the entry bound.
    @Test func byteBoundEvictsTheOldest() throws {
        let a = Self.entry(StatusTests.subscription), b = Self.entry(StatusTests.consumable)
        guard case .authentic(let ra) = a.verdict, case .authentic(let rb) = b.verdict else { Issue.record("not authentic"); return }
        let cache = VerificationCache(capacity: 10_000, byteLimit: ra.approximateBytes + rb.approximateBytes - 1)
        cache.insert(Self.key(StatusTests.subscription), a)
        #expect(cache.count == 1 && cache.bytes == ra.approximateBytes)
        cache.insert(Self.key(StatusTests.consumable), b)
        #expect(cache.count == 1 && cache.bytes == rb.approximateBytes)
        #expect(cache.lookup(Self.key(StatusTests.subscription), bytes: StatusTests.subscription) == nil)
        #expect(cache.lookup(Self.key(StatusTests.consumable), bytes: StatusTests.consumable) != nil)

        let tiny = VerificationCache(capacity: 10_000, byteLimit: 100)
        tiny.insert(Self.key(StatusTests.consumable), b)
        #expect(tiny.count == 0 && tiny.bytes == 0, "an entry larger than the whole bound is not cached")
    }

    /// Refusals go to their own ring, by SHA-256 only: 10,000 distinct refusals leave the
    /// authentic entries where they were, and the ring stays at its size.
    @Test func refusalsNeverEvictAuthenticEntries() throws {
        let cache = VerificationCache(capacity: 2)
        cache.insert(Self.key(StatusTests.subscription), Self.entry(StatusTests.subscription))
        cache.insert(Self.key(StatusTests.consumable), Self.entry(StatusTests.consumable))
        for index in 0 ..< 10_000 {
            cache.insertRefused(VerificationCache.Key(sha256: ReceiptVerifier.sha256(Array("junk \(index)".utf8)), context: .appStoreOnly))
        }
        #expect(cache.count == 2 && cache.refusedCount == VerificationCache.defaultRefusedCapacity)
        #expect(cache.lookup(Self.key(StatusTests.subscription), bytes: StatusTests.subscription) != nil)
        #expect(cache.lookup(Self.key(StatusTests.consumable), bytes: StatusTests.consumable) != nil)
        #expect(cache.isRefused(VerificationCache.Key(sha256: ReceiptVerifier.sha256(Array("junk 9999".utf8)), context: .appStoreOnly)))
        #expect(
            !cache.isRefused(VerificationCache.Key(sha256: ReceiptVerifier.sha256(Array("junk 0".utf8)), context: .appStoreOnly)),
            "the oldest refusal left the ring")
        #expect(!VerificationCache(capacity: 0).isRefused(Self.key(StatusTests.consumable)))
    }

    /// Through the server: a genuine receipt, then a flood of distinct not-authentic copies
    /// (21003 each) with a cache of 2 entries; the genuine receipt is still a cache hit, and a
    /// resent copy is answered 21003 from the ring (a hit, no verification).
    @Test func junkFloodKeepsGenuineEntries() async throws {
        var configuration = TestServer.configuration(try await TestDatabase.make(.sqlite), cache: 2)
        configuration.maxVerifications = 64
        try await TestServer.withMetrics(configuration) { client, metrics in
            try await client.expectStatus(0, Synthetic.body(StatusTests.consumable))
            for index in 0 ..< 200 {
                try await client.expectStatus(21003, Synthetic.body(Self.tampered(StatusTests.consumable, index)))
            }
            try await client.expectStatus(0, Synthetic.body(StatusTests.consumable))
            try await client.expectStatus(21003, Synthetic.body(Self.tampered(StatusTests.consumable, 7)))
            let lines = try await metrics.lines()
            #expect(lines.contains(#"receipt_server_cache_lookups_total{result="hit"} 2"#))
            #expect(lines.contains(#"receipt_server_cache_lookups_total{result="miss"} 201"#))
        }
    }

    @Test func cacheBytesIsAnOption() throws {
        #expect(ServerConfiguration().cacheBytes == 64 << 20)
        var configuration = ServerConfiguration()
        configuration.cacheBytes = -1
        #expect(throws: ConfigurationError.invalidValue("cache-bytes", "-1")) { try configuration.validate() }
    }
}
