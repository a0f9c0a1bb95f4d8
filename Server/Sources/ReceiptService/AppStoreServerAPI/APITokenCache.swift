import CryptoPrimitives
import Foundation
import Synchronization

/// Tokens whose signature verified, by the SHA-256 of their signed content (32 bytes a token,
/// whatever its length), until they expire: a client that reuses its token costs one P-256
/// verification per token, not per request. An entry records the signature only; the claims and
/// the key are checked again on every hit, so a revoked or replaced key, or an expired token, is
/// refused even when cached. At most `capacity` entries: when full, expired entries go first, and
/// if none has expired the cache starts again empty.
///
/// One entry per signed content: an ECDSA signature (r, s) verifies exactly when (r, n − s) does,
/// so anyone holding a token can make its high-S twin without the key. Both are accepted (Apple's
/// Python client signs with `cryptography`, which does not normalise s), and both map to one
/// entry (`digest`), so twins cannot fill the cache.
final class APITokenCache: Sendable {
    struct Entry: Sendable {
        let keyID: String
        /// The key that verified the signature (its stored point).
        let publicKeyBytes: [UInt8]
        let claims: APIJWTClaims
    }

    let capacity: Int
    private let entries: Mutex<[Digest: Entry]> = Mutex([:])

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// The cache key of a token: SHA-256 of its signing input (everything before the last dot,
    /// RFC 7515 §5.2 step 8), r and min(s, n − s) (the signature is r ‖ s, RFC 7518 §3.4). The
    /// last 64 bytes hashed are always r and s, so no two contents share a key. Nil unless the
    /// text after the last dot is the canonical base64url of 64 bytes: `APIJWT` refuses such a
    /// token anyway.
    static func digest(_ token: [UInt8]) -> Digest? {
        guard let dot = token.lastIndex(of: UInt8(ascii: ".")), let signature = signature(token[(dot + 1)...]) else { return nil }
        var hasher = SHA256()
        hasher.update(token[..<dot])
        hasher.update(signature.prefix(32))
        hasher.update(P256Order.lowS(signature.suffix(32)))
        return hasher.finalize()
    }

    /// The 64 bytes that `text` encodes in unpadded base64url (RFC 7515 §2), when it is their
    /// one canonical encoding (86 characters, re-encoding gives the same text).
    static func signature(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard text.count == 86, let ascii = String(bytes: text, encoding: .ascii) else { return nil }
        let standard = ascii.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "=="
        guard !ascii.contains("+"), !ascii.contains("/"), let data = Data(base64Encoded: standard), data.count == 64,
            data.base64EncodedString() == standard
        else { return nil }
        return Array(data)
    }

    func entry(_ digest: Digest) -> Entry? {
        entries.withLock { $0[digest] }
    }

    /// Remembers a verified token; `now` decides which entries have expired when the cache is full.
    func insert(_ digest: Digest, _ entry: Entry, now: Int64) {
        entries.withLock { entries in
            if entries.count >= capacity, entries[digest] == nil {
                let oldest = now - APIJWTClaims.leewayMilliseconds
                entries = entries.filter { $0.value.claims.expiresMilliseconds > oldest }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[digest] = entry
        }
    }

    /// Entries held.
    var count: Int { entries.withLock { $0.count } }
}

/// The order n of the P-256 group (SEC 2 §2.4.2), big-endian, and the one operation on it the
/// token cache needs: telling a signature's s from its twin n − s.
enum P256Order {
    /// n = FFFFFFFF 00000000 FFFFFFFF FFFFFFFF BCE6FAAD A7179E84 F3B9CAC2 FC632551.
    static let bytes: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// min(s, n − s) for a 32-byte big-endian s in [1, n − 1]; any other s unchanged (no such
    /// signature verifies, FIPS 186-5 §6.4.2 step 1).
    static func lowS(_ s: ArraySlice<UInt8>) -> [UInt8] {
        let s = Array(s)
        guard s.count == 32, s.contains(where: { $0 != 0 }), s.lexicographicallyPrecedes(bytes) else { return s }
        let twin = subtracting(s)
        return twin.lexicographicallyPrecedes(s) ? twin : s
    }

    /// n − s for a 32-byte big-endian s ≤ n: schoolbook subtraction from the last byte, with
    /// borrow.
    static func subtracting(_ s: [UInt8]) -> [UInt8] {
        precondition(s.count == 32 && !bytes.lexicographicallyPrecedes(s), "s must be 32 bytes, at most n")
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in (0 ..< 32).reversed() {
            let difference = Int(bytes[index]) - Int(s[index]) - borrow
            result[index] = UInt8(truncatingIfNeeded: difference)
            borrow = difference < 0 ? 1 : 0
        }
        return result
    }
}
