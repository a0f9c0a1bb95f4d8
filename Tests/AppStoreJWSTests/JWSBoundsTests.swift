import AppStoreJWS
import ReceiptTestSupport
import Testing

/// The bounds of README's table on StoreKit 2 signed data, at and just past each value: the token
/// size and the number of `x5c` certificates (the JSON reader's depth and member bounds are tested
/// in JSONReaderTests). Past a bound the error says which; at it the bound is not what refuses.
@Suite("JWS resource bounds")
struct JWSBoundsTests {
    static func error(_ token: [UInt8]) -> JWSError? {
        #expect(throws: JWSError.self) { try CompactJWS(token) }
    }

    @Test func tokenSizeAtAndPastTheLimit() {
        let limit = JWSLimits.maxTokenSize
        #expect(limit == 256 << 10)
        // At the limit the size passes and the shape decides; one byte more and the size refuses.
        let atLimit = [UInt8](repeating: UInt8(ascii: "a"), count: limit)
        #expect(Self.error(atLimit) == .notCompactSerialization)
        #expect(Self.error(atLimit + [UInt8(ascii: "a")]) == .tooLarge(count: limit + 1))
    }

    @Test func certificateCountAtAndPastTheLimit() throws {
        let limit = JWSLimits.maxCertificates
        #expect(limit == 8)
        let chain = TestJWSChain()
        let leaf = chain.certificates[0]
        let atLimit = chain.token(payload: "{}", x5c: Array(repeating: leaf, count: limit))
        #expect(try CompactJWS(atLimit).header.certificateChain?.count == limit)
        let past = chain.token(payload: "{}", x5c: Array(repeating: leaf, count: limit + 1))
        #expect(Self.error(Array(past.utf8)) == .tooManyCertificates(count: limit + 1))
    }
}
