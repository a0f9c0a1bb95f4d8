import CryptoPrimitives

/// How an app's shared secret (verifyReceipt's `password`) is stored:
/// `0x01 ‖ salt ‖ SHA-256(salt ‖ SHA-256(secret))`, with a random 16-byte salt per app (per
/// registration).
///
/// Why SHA-256 of the secret inside, rather than `SHA-256(salt ‖ secret)`: databases before
/// migration 5 hold the unsalted `SHA-256(secret)` only, and the secret cannot be recovered from
/// it. Hashing the secret first gives one formula for old and new rows alike: migration 5 salts
/// the stored digest as it is, and verification needs no scheme branch or version column (the
/// leading byte leaves room for a future scheme). The salt is what matters: the same secret
/// stored for two apps, or in two databases, is two unrelated values, and no table precomputed
/// over common secrets applies. A fast hash is enough because App Store shared secrets are 32
/// random hex digits (128 bits) that Apple generates, not passwords to be guessed from a list.
public enum SharedSecretHash {
    /// The leading byte of this layout.
    static let version: UInt8 = 1
    static let saltBytes = 16
    /// Length of a stored hash: version, salt, digest.
    static let length = 1 + saltBytes + 32

    /// The stored form of `secret`, with a new random salt.
    public static func make(_ secret: String) -> [UInt8] {
        make(sha256: sha256(Array(secret.utf8)))
    }

    /// The stored form of a secret known only by its SHA-256 (a row before migration 5), with a
    /// new random salt.
    public static func make(sha256 digest: [UInt8]) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let salt = (0 ..< saltBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return salted(digest, salt: salt)
    }

    /// Whether `password` is the secret `stored` was made from. The digests are compared in
    /// constant time, so timing reveals neither the secret nor how much of it matched.
    public static func matches(_ password: String?, stored: [UInt8]) -> Bool {
        guard let password, stored.count == length, stored[0] == version else { return false }
        let salt = Array(stored[1 ... saltBytes])
        let given = salted(sha256(Array(password.utf8)), salt: salt)
        return given.withUnsafeBytes { a in stored.withUnsafeBytes { b in constantTimeEquals(a, b) } }
    }

    static func salted(_ digest: [UInt8], salt: [UInt8]) -> [UInt8] {
        [version] + salt + sha256(salt + digest)
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        bytes.withUnsafeBytes { hasher.update($0) }
        return Array(hasher.finalize())
    }
}
