import Crypto
import Foundation
import Logging
import ReceiptStore
import Testing

@testable import ReceiptService

/// A token and its high-S twin (s replaced by n − s, made without the key) are one signed content
/// (issue 33): both are accepted, as ECDSA and Apple's Python client want, and the cache keeps one
/// entry for them.
@Suite struct APITokenLowSTests {
    static let now = APIJWTTests.now
    let signer = APIJWTSigner()

    /// The bytes of a 32-byte big-endian number given in hexadecimal.
    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start ..< hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    static let n = bytes("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
    static let one = [UInt8](repeating: 0, count: 31) + [1]

    @Test func orderSubtractionBorrowsAcrossBytes() {
        #expect(P256Order.bytes == Self.n)
        #expect(P256Order.subtracting(Self.n) == [UInt8](repeating: 0, count: 32))
        #expect(P256Order.subtracting(Self.one) == Self.bytes("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632550"))
        // A borrow through every byte below the top: n − 0x00…0100…0 (one at byte 8).
        #expect(
            P256Order.subtracting(Self.bytes("0000000000000000010000000000000000000000000000000000000000000000"))
                == Self.bytes("FFFFFFFF00000000FEFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551"))
        let subtracted = P256Order.subtracting(Self.bytes("00000000000000000000000000000000000000000000000000000000FC632552"))
        #expect(subtracted == Self.bytes("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC1FFFFFFFF"))
    }

    @Test func lowSIsTheSmallerOfSAndItsTwin() {
        let nMinusOne = P256Order.subtracting(Self.one)
        #expect(P256Order.lowS(nMinusOne[...]) == Self.one)
        #expect(P256Order.lowS(Self.one[...]) == Self.one)
        // Out of [1, n − 1]: no such signature verifies; left as it is.
        #expect(P256Order.lowS(Self.n[...]) == Self.n)
        #expect(P256Order.lowS([UInt8](repeating: 0, count: 32)[...]) == [UInt8](repeating: 0, count: 32))
        #expect(P256Order.lowS([UInt8](repeating: 0xFF, count: 32)[...]) == [UInt8](repeating: 0xFF, count: 32))
    }

    /// The twin of a token: its signature's s replaced by n − s (computed here with swift-crypto's
    /// check that it still verifies: an independent test of `P256Order`).
    func twin(of token: String) throws -> String {
        let parts = token.split(separator: ".")
        var text = parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        let signature = try #require(Data(base64Encoded: text))
        let twin = Array(signature.prefix(32)) + P256Order.subtracting(Array(signature.suffix(32)))
        let input = Data(token[..<token.lastIndex(of: ".")!].utf8)
        #expect(signer.key.publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: twin), for: input))
        return parts[0] + "." + parts[1] + "." + APIJWTSigner.base64URL(Data(twin))
    }

    @Test func highSTwinIsAcceptedAndSharesTheCacheEntry() async throws {
        let authenticator = AppStoreAPIAuthenticator(
            store: MemoryIAPKeyStore([signer.record()]), registry: AppRegistry(), logger: Logger(label: "test"))
        let token = try signer.token(now: Self.now)
        let twin = try twin(of: token)
        #expect(twin != token)
        #expect(APITokenCache.digest(Array(token.utf8)) == APITokenCache.digest(Array(twin.utf8)))
        #expect(await authenticator.authenticate("Bearer " + token, now: Self.now) != nil)
        #expect(await authenticator.authenticate("Bearer " + twin, now: Self.now) != nil)
        #expect(authenticator.cachedTokenCount == 1)
        // Twin first, on a fresh authenticator: verified (not a cache hit), one entry again.
        let fresh = AppStoreAPIAuthenticator(store: MemoryIAPKeyStore([signer.record()]), registry: AppRegistry(), logger: Logger(label: "test"))
        #expect(await fresh.authenticate("Bearer " + twin, now: Self.now) != nil)
        #expect(await fresh.authenticate("Bearer " + token, now: Self.now) != nil)
        #expect(fresh.cachedTokenCount == 1)
    }

    /// What is not the same signed content has another key, and a tampered signature is refused.
    @Test func otherContentOrSignatureIsNotTheCachedEntry() async throws {
        let authenticator = AppStoreAPIAuthenticator(
            store: MemoryIAPKeyStore([signer.record()]), registry: AppRegistry(), logger: Logger(label: "test"))
        let token = try signer.token(now: Self.now)
        #expect(await authenticator.authenticate("Bearer " + token, now: Self.now) != nil)
        var bytes = Array(token.utf8)
        bytes[bytes.count - 30] = bytes[bytes.count - 30] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")   // in s
        #expect(APITokenCache.digest(bytes) != APITokenCache.digest(Array(token.utf8)))
        #expect(await authenticator.authenticate("Bearer " + String(decoding: bytes, as: UTF8.self), now: Self.now) == nil)
        // Not canonical base64url, or not 64 bytes: no key at all (such a token is refused).
        let signature = token[token.index(after: token.lastIndex(of: ".")!)...]
        #expect(signature.count == 86)
        #expect(APITokenCache.digest(Array((token.dropLast() + "=").utf8)) == nil)
        #expect(APITokenCache.digest(Array((token + "AA").utf8)) == nil)
        #expect(APITokenCache.digest(Array(String(token.prefix(upTo: token.lastIndex(of: ".")!)).utf8)) == nil)
        #expect(authenticator.cachedTokenCount == 1)
    }
}
