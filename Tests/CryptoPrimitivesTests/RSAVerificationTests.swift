import CryptoPrimitives
import ReceiptTestSupport
import TestHelpers
import Testing

/// RSASSA-PKCS1-v1_5 verification edge cases and the key rules.
@Suite struct RSAVerificationTests {
    static let signingKey = TestKeys.rsa2048[0]
    static let key = signingKey.publicKey
    static let message = Array("abc".utf8)
    static let digest = SHA256.hash(message)
    /// OpenSSL's signature of "abc" with rsa2048-1 (see TestKeysTests); its first byte is 0x00.
    static let validSignature = Hex.bytes(TestKeysTests.openSSLSignatures[0].signature)

    static func verify(_ signature: [UInt8]) -> Bool {
        key.isValidSignature(signature, digest: digest, algorithm: .sha256)
    }

    /// Big-endian a + b (or a − b), same width as a, for building edge values.
    static func add(_ a: [UInt8], _ b: [UInt8], subtract: Bool = false) -> [UInt8] {
        var result = a
        var carry = 0
        for index in stride(from: a.count - 1, through: 0, by: -1) {
            let offset = index - (a.count - b.count)
            let other = offset >= 0 ? Int(b[offset]) : 0
            let sum = subtract ? Int(a[index]) - other - carry : Int(a[index]) + other + carry
            result[index] = UInt8(truncatingIfNeeded: sum)
            carry = subtract ? (sum < 0 ? 1 : 0) : sum >> 8
        }
        #expect(carry == 0, "edge value out of range")
        return result
    }

    @Test func theValidSignatureVerifies() {
        #expect(Self.validSignature.count == 256 && Self.validSignature[0] == 0)
        #expect(Self.verify(Self.validSignature))
        Self.validSignature.withUnsafeBytes { #expect(Self.key.isValidSignature($0, digest: Self.digest, algorithm: .sha256)) }
    }

    @Test func edgeIntegersAreRejected() {
        let n = Self.key.modulus
        #expect(n.count == 256)
        let one = [UInt8](repeating: 0, count: 255) + [1]
        #expect(!Self.verify([UInt8](repeating: 0, count: 256)), "s = 0")
        #expect(!Self.verify(one), "s = 1")
        #expect(!Self.verify(Self.add(n, one, subtract: true)), "s = n − 1")
        #expect(!Self.verify(n), "s = n")
        #expect(!Self.verify(Self.add(n, one)), "s = n + 1")
        #expect(!Self.verify([UInt8](repeating: 0xff, count: 256)), "s = 2^2048 − 1 > n")
        // s + n ≡ s (mod n): a verifier that reduces its input would accept it.
        #expect(!Self.verify(Self.add(Self.validSignature, n)), "s + n")
    }

    @Test func wrongLengthsAreRejected() {
        // Same integer value, other lengths (RFC 8017 §8.2.2 step 1).
        #expect(!Self.verify(Array(Self.validSignature.dropFirst())), "255 bytes")
        #expect(!Self.verify([0] + Self.validSignature), "257 bytes")
        #expect(!Self.verify([]), "empty")
    }

    @Test func wrongDigestsAndAlgorithmsAreRejected() throws {
        let key = Self.key, signature = Self.validSignature
        // Digest length not matching the algorithm.
        #expect(!key.isValidSignature(signature, digest: SHA1.hash(Self.message), algorithm: .sha256))
        #expect(!key.isValidSignature(signature, digest: Self.digest, algorithm: .sha1))
        #expect(!key.isValidSignature(signature, digest: Self.digest, algorithm: .sha384))
        let truncated = try #require(Digest(Self.digest.prefix(28)))
        #expect(!key.isValidSignature(signature, digest: truncated, algorithm: .sha224))
        #expect(!key.isValidSignature(signature, digest: Digest([UInt8]())!, algorithm: .sha256))
        // Right length, other algorithm: the DigestInfo differs.
        for algorithm in [HashAlgorithm.sha1, .sha224, .sha384, .sha512] {
            #expect(!key.isValidSignature(signature, digest: algorithm.hash(Self.message), algorithm: algorithm))
        }
        // Other message.
        #expect(!key.isValidSignature(signature, digest: SHA256.hash(Array("abd".utf8)), algorithm: .sha256))
        // Signed as SHA-1, checked as SHA-1 and as SHA-256 of the same bytes.
        let sha1Signature = Self.signingKey.sign(message: Self.message, algorithm: .sha1)
        #expect(key.isValidSignature(sha1Signature, digest: SHA1.hash(Self.message), algorithm: .sha1))
        #expect(!key.isValidSignature(sha1Signature, digest: Self.digest, algorithm: .sha256))
    }

    @Test func everySingleBitFlipIsRejected() {
        let signature = Self.signingKey.sign(digest: Self.digest, algorithm: .sha256)
        #expect(signature == Self.validSignature)
        var accepted: [Int] = []
        for bit in 0 ..< (signature.count * 8) {
            var flipped = signature
            flipped[bit / 8] ^= 0x80 >> UInt8(bit % 8)
            if Self.verify(flipped) { accepted.append(bit) }
        }
        #expect(accepted.isEmpty, "accepted flips: \(accepted)")
    }

    @Test func keyRules() throws {
        let n = Self.key.modulus
        let e: [UInt8] = [1, 0, 1]
        func refusal(_ modulus: [UInt8], _ exponent: [UInt8]) -> RSAKeyError? {
            do { _ = try RSAPublicKey(modulus: modulus, exponent: exponent); return nil } catch { return error }
        }
        #expect(refusal([], e) == .modulusIsZero)
        #expect(refusal([0, 0, 0], e) == .modulusIsZero)
        var even = n
        even[255] &= 0xfe
        #expect(refusal(even, e) == .modulusIsEven)
        // 1023 bits: 0x7f… ; 8193 bits: 0x01 followed by 1024 bytes.
        #expect(refusal([0x7f] + [UInt8](repeating: 0xff, count: 127), e) == .modulusTooSmall(bits: 1023))
        #expect(refusal([0x7f] + [UInt8](repeating: 0xff, count: 63), e) == .modulusTooSmall(bits: 511))
        #expect(refusal([1], e) == .modulusTooSmall(bits: 1))
        #expect(refusal([1] + [UInt8](repeating: 0xff, count: 1024), e) == .modulusTooLarge(bits: 8193))
        // Exponents.
        #expect(refusal(n, []) == .exponentTooSmall)
        #expect(refusal(n, [0]) == .exponentTooSmall)
        #expect(refusal(n, [1]) == .exponentTooSmall)
        #expect(refusal(n, [2]) == .exponentTooSmall)
        #expect(refusal(n, [4]) == .exponentIsEven)
        #expect(refusal(n, [1, 0, 0]) == .exponentIsEven)
        #expect(refusal(n, [1] + [UInt8](repeating: 0, count: 7) + [1]) == .exponentTooLarge)   // 2^64 + 1
        #expect(refusal(n, [UInt8](repeating: 0xff, count: 8)) == nil)   // 2^64 − 1
        #expect(refusal(n, [3]) == nil)

        // The size limits themselves are accepted.
        let smallest = try RSAPublicKey(modulus: [0x80] + [UInt8](repeating: 0, count: 126) + [1], exponent: e)
        #expect(smallest.modulusBitCount == 1024 && smallest.modulusByteCount == 128)
        let largest = try RSAPublicKey(modulus: [UInt8](repeating: 0xff, count: 1024), exponent: e)
        #expect(largest.modulusBitCount == 8192 && largest.modulusByteCount == 1024)
        #expect(RSAPublicKey.supportedModulusBits == 1024 ... 8192)

        // Leading zeros are ignored; the accessors return minimal encodings.
        let padded = try RSAPublicKey(modulus: [0, 0, 0] + n, exponent: [0, 0, 1, 0, 1])
        #expect(padded.modulus == n && padded.exponent == e)
        #expect(padded.modulusBitCount == 2048 && padded.modulusByteCount == 256)
        #expect(padded == Self.key)
        #expect(padded.isValidSignature(Self.validSignature, digest: Self.digest, algorithm: .sha256))
        n.withUnsafeBytes { modulus in
            e.withUnsafeBytes { exponent in
                #expect(throws: Never.self) { try RSAPublicKey(modulus: modulus, exponent: exponent) }
            }
        }
    }

    @Test func oddModulusSizes() throws {
        // A 1025-bit and a 2047-bit modulus: byte length ⌈bits/8⌉, limbs not full.
        let key1025 = try RSAPublicKey(modulus: [1] + [UInt8](repeating: 0x35, count: 128), exponent: [3])
        #expect(key1025.modulusBitCount == 1025 && key1025.modulusByteCount == 129)
        // Any 129-byte value below n but not a valid signature is rejected, at any length but 129.
        let candidate = [0] + [UInt8](repeating: 0x11, count: 128)
        #expect(!key1025.isValidSignature(candidate, digest: Self.digest, algorithm: .sha256))
        #expect(!key1025.isValidSignature(Array(candidate.dropFirst()), digest: Self.digest, algorithm: .sha256))
    }

    /// s^3 for a small s is an exact cube: with e = 3 the "decrypted" block is s³ (no reduction),
    /// which must not pass for a valid encoding.
    @Test func smallSignatureWithExponentThree() {
        let key = TestKeys.rsa2048e3.publicKey
        var signature = [UInt8](repeating: 0, count: 256)
        signature[255] = 2
        #expect(!key.isValidSignature(signature, digest: Self.digest, algorithm: .sha256))
        let valid = TestKeys.rsa2048e3.sign(digest: Self.digest, algorithm: .sha256)
        #expect(key.isValidSignature(valid, digest: Self.digest, algorithm: .sha256))
    }
}
