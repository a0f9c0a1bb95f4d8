import CryptoPrimitives
import TestHelpers
import Testing

@Suite struct DigestTests {
    @Test func equalityAndHex() throws {
        let abc = SHA256.hash(Array("abc".utf8))
        // FIPS 180 example.
        #expect(abc.description == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(abc.bytes == Hex.bytes("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(abc.count == 32 && abc.first == 0xba && abc.last == 0xad && abc[1] == 0x78)
        #expect(Array(abc) == abc.bytes)
        #expect(abc == SHA256.hash(Array("abc".utf8)))
        #expect(abc != SHA256.hash(Array("abd".utf8)))
        #expect(abc.withUnsafeBytes { Array($0) } == abc.bytes)

        let wrapped = try #require(Digest(abc.bytes))
        #expect(wrapped == abc)
        #expect(Set([wrapped, abc]).count == 1)
        // Same leading bytes, other length: not equal.
        let truncated = try #require(Digest(abc.bytes.prefix(20)))
        #expect(truncated != abc && truncated.count == 20)
        #expect(Digest([UInt8](repeating: 1, count: 65)) == nil)
        #expect(Digest([UInt8]())?.description == "")
        // A difference in the last byte only.
        var lastFlipped = abc.bytes
        lastFlipped[31] ^= 1
        #expect(Digest(lastFlipped) != abc)
    }

    @Test func sha512DigestUsesAllInlineStorage() {
        let digest = SHA512.hash([UInt8]())
        #expect(digest.count == 64)
        #expect(digest.description.hasSuffix("a538327af927da3e"))
        #expect(digest.description.count == 128)
    }

    @Test func constantTimeEqualsBasics() {
        func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            a.withUnsafeBytes { a in b.withUnsafeBytes { b in constantTimeEquals(a, b) } }
        }
        #expect(equals([], []))
        #expect(equals([1, 2, 3], [1, 2, 3]))
        #expect(!equals([1, 2, 3], [1, 2, 4]))
        #expect(!equals([0, 2, 3], [1, 2, 3]))
        #expect(!equals([1, 2, 3], [1, 2]))
        #expect(!equals([], [0]))
        #expect(!equals([0x80], [0x00]))
    }
}
