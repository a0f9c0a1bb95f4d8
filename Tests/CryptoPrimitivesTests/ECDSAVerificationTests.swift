import CryptoPrimitives
import ReceiptTestSupport
import TestHelpers
import Testing

/// Public key validation (one test per `ECKeyError` rule) and the verification rules: r and s
/// in [1, n − 1], exact P1363 length, digests of any length, tampering, high S, round trips.
@Suite struct ECDSAVerificationTests {
    static let orders: [EllipticCurve: String] = [
        .p256: "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551",
        .p384: "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973",
    ]
    static let primes: [EllipticCurve: String] = [
        .p256: "FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF",
        .p384: "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFFFF0000000000000000FFFFFFFF",
    ]

    static func key(_ curve: EllipticCurve) -> ECDSAPrivateKey {
        ECDSAPrivateKey(curve: curve, rawRepresentation: [UInt8](repeating: 0x5a, count: curve.byteCount))
    }

    static func rejection(_ curve: EllipticCurve, _ bytes: [UInt8]) -> ECKeyError? {
        do {
            _ = try ECDSAPublicKey(curve: curve, x963Representation: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [EllipticCurve.p256, .p384])
    func publicKeyValidation(_ curve: EllipticCurve) throws {
        let size = curve.byteCount, good = Self.key(curve).x963Representation
        let x = Array(good[1 ... size]), y = Array(good[(1 + size)...])
        #expect(good.count == 1 + 2 * size)
        #expect(try ECDSAPublicKey(curve: curve, x963Representation: good).x963Representation == good)
        // Encoding (SEC 1 §2.3.4).
        #expect(Self.rejection(curve, []) == .wrongLength(expected: 1 + 2 * size, actual: 0))
        #expect(Self.rejection(curve, Array(good.dropLast())) == .wrongLength(expected: 1 + 2 * size, actual: 2 * size))
        #expect(Self.rejection(curve, good + [0]) == .wrongLength(expected: 1 + 2 * size, actual: 2 + 2 * size))
        #expect(Self.rejection(curve, [0x02] + x) == .compressedPoint)
        #expect(Self.rejection(curve, [0x03] + x) == .compressedPoint)
        #expect(Self.rejection(curve, [0x00]) == .pointAtInfinity)
        #expect(Self.rejection(curve, [0x00] + x + y) == .pointAtInfinity)
        #expect(Self.rejection(curve, [0x06] + x + y) == .notUncompressed(firstByte: 0x06))
        #expect(Self.rejection(curve, [0x07] + x + y) == .notUncompressed(firstByte: 0x07))
        // Validation (SEC 1 §3.2.2.1): coordinates below p, on the curve.
        let p = Hex.bytes(Self.primes[curve]!)
        #expect(Self.rejection(curve, [0x04] + p + y) == .coordinateNotBelowPrime)
        #expect(Self.rejection(curve, [0x04] + x + p) == .coordinateNotBelowPrime)
        #expect(Self.rejection(curve, [0x04] + [UInt8](repeating: 0xff, count: size) + y) == .coordinateNotBelowPrime)
        var offCurve = good
        offCurve[offCurve.count - 1] ^= 1
        #expect(Self.rejection(curve, offCurve) == .notOnCurve)
        #expect(Self.rejection(curve, [0x04] + [UInt8](repeating: 0, count: 2 * size)) == .notOnCurve)
        // y + p would be the same residue: refused as not below p, never reduced.
        #expect(ECKeyError.notOnCurve.description.contains("curve"))
    }

    @Test(arguments: [EllipticCurve.p256, .p384])
    func signatureRangeAndLength(_ curve: EllipticCurve) {
        let key = Self.key(curve), size = curve.byteCount
        let digest = SHA256.hash(Array("range".utf8))
        let signature = key.signature(for: digest)
        let r = Array(signature[0 ..< size]), s = Array(signature[size...])
        let n = Hex.bytes(Self.orders[curve]!), zero = [UInt8](repeating: 0, count: size)
        func verifies(_ r: [UInt8], _ s: [UInt8]) -> Bool {
            r.withUnsafeBytes { r in s.withUnsafeBytes { s in key.publicKey.isValidSignature(r: r, s: s, digest: digest) } }
        }
        #expect(verifies(r, s))
        #expect(verifies([0, 0] + r, [0] + s))   // leading zeros allowed
        #expect(!verifies(zero, s))   // r = 0
        #expect(!verifies(r, zero))   // s = 0
        #expect(!verifies([], s))   // empty is zero
        #expect(!verifies(n, s))   // r = n
        #expect(!verifies(r, n))   // s = n
        #expect(!verifies([1] + r, s))   // r ≥ 2^(8·size)
        #expect(!verifies(r, [1] + s))
        #expect(!verifies(Self.adding(n, r), s))   // r + n: the same residue, out of range
        #expect(!verifies(r, Self.adding(n, s)))
        // High S: (r, n − s) is the other valid signature; ECDSA (and JWS, Apple) accept it.
        #expect(verifies(r, Self.subtracting(n, s)))
        // P1363: exactly 2 × byteCount bytes.
        #expect(key.publicKey.isValidSignature(rawRepresentation: signature, digest: digest))
        #expect(!key.publicKey.isValidSignature(rawRepresentation: Array(signature.dropLast()), digest: digest))
        #expect(!key.publicKey.isValidSignature(rawRepresentation: signature + [0], digest: digest))
        #expect(!key.publicKey.isValidSignature(rawRepresentation: [0] + signature, digest: digest))
        #expect(!key.publicKey.isValidSignature(rawRepresentation: [], digest: digest))
    }

    @Test(arguments: [EllipticCurve.p256, .p384])
    func flippedBitsFail(_ curve: EllipticCurve) throws {
        let key = Self.key(curve)
        let digest = SHA384.hash(Array("flip".utf8))
        let signature = key.signature(for: digest)
        #expect(key.publicKey.isValidSignature(rawRepresentation: signature, digest: digest))
        for bit in stride(from: 0, to: 8 * signature.count, by: 37) {
            var tampered = signature
            tampered[bit / 8] ^= 1 << (bit % 8)
            #expect(!key.publicKey.isValidSignature(rawRepresentation: tampered, digest: digest), "signature bit \(bit)")
        }
        // Only the leftmost byteCount bytes of the digest count (FIPS 186-5 §6.4.2 step 3): a
        // SHA-384 digest on P-256 loses its last 16 bytes.
        for bit in stride(from: 0, to: 8 * digest.count, by: 29) {
            var bytes = digest.bytes
            bytes[bit / 8] ^= 1 << (bit % 8)
            let verifies = key.publicKey.isValidSignature(rawRepresentation: signature, digest: try #require(Digest(bytes)))
            #expect(verifies == (bit / 8 >= curve.byteCount), "digest bit \(bit)")
        }
        let other = ECDSAPrivateKey(curve: curve, rawRepresentation: [7])
        #expect(!other.publicKey.isValidSignature(rawRepresentation: signature, digest: digest))
    }

    /// Digests shorter and longer than the order, signed by OpenSSL (through Python's
    /// `cryptography`, private scalar 0x1234567890abcdef1234567890abcdef, message "cross-hash").
    @Test func digestsOfOtherLengths() throws {
        let message = Array("cross-hash".utf8)
        let cases: [(EllipticCurve, HashAlgorithm, String, String)] = [
            (
                .p256, .sha384,
                "04f9ebe464147cc102d92324d099d927c1a50e42d57a08a116ffec0a29819d8c6570baf7d12888902a6a0c1d67add103123c859ab69bf8e9431c9384930d4b7eee",
                "0769f96e00646e0748c5e2b738af4d475ef2b7860b0f733f8b9c6a9a322d15d36913f443dd21e03a21b77f2c2870c56c8bd0654889efd4e4b118eebf804ba289"
            ),
            (
                .p384, .sha256,
                "04bfd152465458e5b9f1a903eafef03095ebfd52c5f9ea97be74de9194355fcfb40ec097315adf6afdefba21f44b625b4817058eff9a1ad175a4675e9c730cb028ec76aec544f7a56d58164d8cfc0402b489c4e74c918dc3a77f5c219d31b8e245",
                "25aed2f772d1b6210c37507fac5ba614e95be68e65936f4162d5b5f0281a2b2b872ceecc8087d85f561c9d756eec8ad1b73af8cc21a3af27176f5b3a7fdaa5be1f2c6ff2dac80573d8669061af01806b770aa352ec7639866d56d3b43eda328f"
            ),
            (
                .p256, .sha1,
                "04f9ebe464147cc102d92324d099d927c1a50e42d57a08a116ffec0a29819d8c6570baf7d12888902a6a0c1d67add103123c859ab69bf8e9431c9384930d4b7eee",
                "2ed1a779fa005dcf0cde0fd080aceb6ee7bc661b66dd6eaff18467c612e3ae2c694c50663a13278f4512e812e7d5eae7abbd05516e640a724ae3a47b586b99bb"
            ),
        ]
        for (curve, hash, point, signature) in cases {
            let key = try ECDSAPublicKey(curve: curve, x963Representation: Hex.bytes(point))
            #expect(key.isValidSignature(rawRepresentation: Hex.bytes(signature), digest: hash.hash(message)), "\(curve) \(hash)")
            #expect(!key.isValidSignature(rawRepresentation: Hex.bytes(signature), digest: hash.hash(message + [0])))
        }
    }

    @Test(arguments: [EllipticCurve.p256, .p384])
    func randomRoundTrips(_ curve: EllipticCurve) throws {
        var generator = SplitMix64(seed: curve == .p256 ? 6979 : 69790)
        for _ in 0 ..< 6 {
            let secret = (0 ..< curve.byteCount).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let key = ECDSAPrivateKey(curve: curve, rawRepresentation: [0x01] + secret.dropFirst())   // below n
            let digestBytes = (0 ..< 32).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let digest = try #require(Digest(digestBytes))
            let signature = key.signature(for: digest)
            #expect(signature.count == 2 * curve.byteCount)
            let publicKey = try ECDSAPublicKey(curve: curve, x963Representation: key.x963Representation)
            #expect(publicKey == key.publicKey)
            #expect(publicKey.isValidSignature(rawRepresentation: signature, digest: digest))
            #expect(key.signature(for: digest) == signature)   // deterministic
        }
    }

    /// A key with its table (`withVerificationTable()`) is the same key and answers as the key
    /// without it: valid signatures, tampered ones, r and s out of range; P-384 keys carry no table.
    @Test(arguments: [EllipticCurve.p256, .p384])
    func verificationTableChangesNoAnswer(_ curve: EllipticCurve) throws {
        var generator = SplitMix64(seed: curve == .p256 ? 7256 : 7384)
        for round in 0 ..< 8 {
            let secret = (0 ..< curve.byteCount).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let key = ECDSAPrivateKey(curve: curve, rawRepresentation: [0x01] + secret.dropFirst())
            let plain = key.publicKey, tabled = plain.withVerificationTable()
            #expect(tabled == plain && tabled.hashValue == plain.hashValue)
            #expect(!plain.hasVerificationTable)
            #expect(tabled.hasVerificationTable == (curve == .p256))
            #expect(tabled.withVerificationTable().hasVerificationTable == (curve == .p256))
            let digest = try #require(Digest((0 ..< 32).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
            let signature = key.signature(for: digest)
            #expect(tabled.isValidSignature(rawRepresentation: signature, digest: digest), "round \(round)")
            var tampered = signature
            tampered[round * 7 % signature.count] ^= 0x10
            #expect(!tabled.isValidSignature(rawRepresentation: tampered, digest: digest), "round \(round)")
            let n = Hex.bytes(Self.orders[curve]!), zero = [UInt8](repeating: 0, count: curve.byteCount)
            let s = Array(signature[curve.byteCount...]), r = Array(signature[..<curve.byteCount])
            for (badR, badS) in [(zero, s), (r, zero), (n, s), (r, n)] {
                #expect(!tabled.isValidSignature(rawRepresentation: badR + badS, digest: digest))
            }
        }
    }

    /// Big-endian a + b and a − b (a ≥ b), one byte longer for the sum.
    static func adding(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: a.count + 1), carry = 0
        for i in 0 ..< a.count {
            let sum = Int(a[a.count - 1 - i]) + Int(b[b.count - 1 - i]) + carry
            result[a.count - i] = UInt8(sum & 0xff)
            carry = sum >> 8
        }
        result[0] = UInt8(carry)
        return result
    }

    static func subtracting(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: a.count), borrow = 0
        for i in (0 ..< a.count).reversed() {
            let difference = Int(a[i]) - Int(b[i]) - borrow
            result[i] = UInt8((difference + 256) & 0xff)
            borrow = difference < 0 ? 1 : 0
        }
        return result
    }
}
