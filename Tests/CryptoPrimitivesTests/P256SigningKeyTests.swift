import CryptoPrimitives
import Foundation
import ReceiptTestSupport
import TestHelpers
import Testing

/// The constant-time P-256 signer: RFC 6979 §A.2.5's vectors, agreement with the test signer's
/// (variable-time) multiplication, round trips through our verifier and OpenSSL's, low S,
/// hedged nonces, key range checks.
@Suite struct P256SigningKeyTests {
    static let rfcKey = (
        x: "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721",
        ux: "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6",
        uy: "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"
    )
    static let order = Hex.bytes("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")

    struct RFCVector: Sendable, CustomTestStringConvertible {
        let message: String, r: String, s: String
        var testDescription: String { message }
    }

    /// RFC 6979 §A.2.5, P-256 with SHA-256 (k = A6E3C57D… and D16B6AE8…: r is x(k·G) mod n,
    /// so equal r means equal k). The RFC's s for "sample" is high; we output n − s.
    static let vectors = [
        RFCVector(
            message: "sample", r: "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
            s: "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"),
        RFCVector(
            message: "test", r: "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367",
            s: "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"),
    ]

    @Test func rfc6979PublicKey() throws {
        let key = try P256SigningKey(rawRepresentation: Hex.bytes(Self.rfcKey.x))
        #expect(key.publicKey.x963Representation == [0x04] + Hex.bytes(Self.rfcKey.ux) + Hex.bytes(Self.rfcKey.uy))
        #expect(key.rawRepresentation == Hex.bytes(Self.rfcKey.x))
    }

    @Test(arguments: vectors)
    func rfc6979Vectors(_ vector: RFCVector) throws {
        let key = try P256SigningKey(rawRepresentation: Hex.bytes(Self.rfcKey.x))
        let digest = HashAlgorithm.sha256.hash(Array(vector.message.utf8))
        let signature = key.signature(for: digest)
        #expect(Array(signature[..<32]) == Hex.bytes(vector.r))
        let rfcS = Hex.bytes(vector.s), ourS = Array(signature[32...])
        // Raw s: ours is the RFC's, or n − the RFC's when that is the low one.
        #expect(ourS == rfcS || Self.subtract(Self.order, ourS) == rfcS)
        #expect(ourS == Self.lowS(rfcS))
        #expect(key.publicKey.isValidSignature(rawRepresentation: signature, digest: digest))
        // The RFC's high s verifies too (ECDSA does not require low S).
        #expect(key.publicKey.isValidSignature(rawRepresentation: Hex.bytes(vector.r) + rfcS, digest: digest))
    }

    /// "sample"'s s is high and "test"'s low, so both branches of the low-S choice are covered.
    @Test func rfcVectorsCoverHighAndLowS() {
        #expect(Self.isHigh(Hex.bytes(Self.vectors[0].s)))
        #expect(!Self.isHigh(Hex.bytes(Self.vectors[1].s)))
    }

    /// The constant-time multiplication agrees with the test signer's wNAF on edge scalars
    /// (1, 2, 15, 16, all-ones nibbles, n − 1) and random ones, and r matches its r.
    @Test func agreesWithTestSigner() throws {
        var scalars: [[UInt8]] = [
            [UInt8](repeating: 0, count: 31) + [1], [UInt8](repeating: 0, count: 31) + [2],
            [UInt8](repeating: 0, count: 31) + [15], [UInt8](repeating: 0, count: 31) + [16],
            [UInt8](repeating: 0x11, count: 32), [0x0f] + [UInt8](repeating: 0xff, count: 31),
            Self.subtract(Self.order, [UInt8](repeating: 0, count: 31) + [1]),
            Self.subtract(Self.order, [UInt8](repeating: 0, count: 31) + [16]),
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 24 { scalars.append(Self.randomScalar(&generator)) }
        for scalar in scalars {
            let key = try P256SigningKey(rawRepresentation: scalar)
            let reference = ECDSAPrivateKey(curve: .p256, rawRepresentation: scalar)
            #expect(key.publicKey == reference.publicKey, "d = \(Hex.string(scalar))")
            let digest = HashAlgorithm.sha256.hash(scalar)
            let ours = key.signature(for: digest), theirs = reference.signature(for: digest)
            #expect(ours[..<32] == theirs[..<32])
            #expect(Array(ours[32...]) == Self.lowS(Array(theirs[32...])))
        }
    }

    /// Random keys and messages of random lengths: every signature verifies, is low-S, and
    /// signing again gives the same bytes.
    @Test func randomRoundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0 ..< 64 {
            let key = try P256SigningKey(rawRepresentation: Self.randomScalar(&generator))
            let message = (0 ..< Int.random(in: 0 ... 300, using: &generator)).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            let digest = HashAlgorithm.sha256.hash(message)
            let signature = key.signature(for: digest)
            #expect(signature.count == 64)
            #expect(key.publicKey.isValidSignature(rawRepresentation: signature, digest: digest), "round \(round)")
            #expect(!Self.isHigh(Array(signature[32...])), "round \(round): high s")
            #expect(key.signature(for: digest) == signature)
            // A verification table answers the same.
            #expect(key.publicKey.withVerificationTable().isValidSignature(rawRepresentation: signature, digest: digest))
            // A different digest does not verify.
            #expect(!key.publicKey.isValidSignature(rawRepresentation: signature, digest: HashAlgorithm.sha256.hash(message + [0])))
        }
    }

    /// The signer's allocation-free RFC 6979 generator gives the generic one's candidates, the
    /// second and third too (step h.3's update), with and without additional data, for digests
    /// of 20, 32 and 64 bytes.
    @Test func nonceGeneratorMatchesTheGenericOne() throws {
        let key = Hex.bytes(Self.rfcKey.x)
        for algorithm in [HashAlgorithm.sha1, .sha256, .sha512] {
            for extra in [[], [UInt8](repeating: 7, count: 32), [UInt8](repeating: 9, count: 100)] {
                let digest = algorithm.hash(Array("sample".utf8))
                let nonces = ECArithmeticTestSupport.p256Nonces(privateKey: key, digest: digest, additionalData: extra, count: 3)
                #expect(nonces.signer == nonces.generic, "\(algorithm), \(extra.count) bytes of additional data")
            }
        }
    }

    /// SHA-384 and SHA-1 digests: longer ones are truncated to 256 bits, shorter ones used whole.
    @Test func otherDigestLengths() throws {
        let key = try P256SigningKey(rawRepresentation: Hex.bytes(Self.rfcKey.x))
        for algorithm in [HashAlgorithm.sha1, .sha384, .sha512] {
            let digest = algorithm.hash(Array("sample".utf8))
            #expect(key.publicKey.isValidSignature(rawRepresentation: key.signature(for: digest), digest: digest), "\(algorithm)")
        }
    }

    /// Hedged signatures (RFC 6979 §3.6) verify, depend on the randomness, and equal the
    /// deterministic one only with no randomness.
    @Test func hedgedSignatures() throws {
        let key = try P256SigningKey(rawRepresentation: Hex.bytes(Self.rfcKey.x))
        let digest = HashAlgorithm.sha256.hash(Array("sample".utf8))
        let plain = key.signature(for: digest)
        let a = key.signature(for: digest, additionalRandomness: [UInt8](repeating: 1, count: 32))
        let b = key.signature(for: digest, additionalRandomness: [UInt8](repeating: 2, count: 32))
        #expect(a != plain && b != plain && a != b)
        #expect(a == key.signature(for: digest, additionalRandomness: [UInt8](repeating: 1, count: 32)))
        #expect(key.signature(for: digest, additionalRandomness: []) == plain)
        let fresh = key.hedgedSignature(for: digest), again = key.hedgedSignature(for: digest)
        #expect(fresh != again && fresh != plain)
        for signature in [a, b, fresh, again] {
            #expect(key.publicKey.isValidSignature(rawRepresentation: signature, digest: digest))
            #expect(!Self.isHigh(Array(signature[32...])))
        }
    }

    /// The DER form holds the same r and s: "test"'s r has its top bit set (a 0x00 is
    /// prepended), its s a leading zero byte (dropped).
    @Test func derSignature() throws {
        let key = try P256SigningKey(rawRepresentation: Hex.bytes(Self.rfcKey.x))
        let digest = HashAlgorithm.sha256.hash(Array("test".utf8))
        let der = key.derSignature(for: digest)
        let r = Hex.bytes(Self.vectors[1].r), s = Array(Hex.bytes(Self.vectors[1].s).drop { $0 == 0 })
        #expect(der == [0x30, UInt8(4 + 33 + s.count), 0x02, 33, 0x00] + r + [0x02, UInt8(s.count)] + s)
    }

    @Test func refusesBadScalars() {
        #expect(throws: P256SigningKeyError.wrongLength(actual: 31)) { try P256SigningKey(rawRepresentation: [UInt8](repeating: 1, count: 31)) }
        #expect(throws: P256SigningKeyError.wrongLength(actual: 33)) { try P256SigningKey(rawRepresentation: [UInt8](repeating: 1, count: 33)) }
        #expect(throws: P256SigningKeyError.scalarOutOfRange) { try P256SigningKey(rawRepresentation: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: P256SigningKeyError.scalarOutOfRange) { try P256SigningKey(rawRepresentation: Self.order) }
        #expect(throws: P256SigningKeyError.scalarOutOfRange) { try P256SigningKey(rawRepresentation: [UInt8](repeating: 0xff, count: 32)) }
        #expect(throws: Never.self) { try P256SigningKey(rawRepresentation: Self.subtract(Self.order, [UInt8](repeating: 0, count: 31) + [1])) }
    }

    /// Neither the description nor a dump shows the private scalar.
    @Test func descriptionsHideTheScalar() throws {
        let secret = Hex.bytes(Self.rfcKey.x)
        let key = try P256SigningKey(rawRepresentation: secret)
        var dumped = ""
        dump(key, to: &dumped)
        for text in [key.description, key.debugDescription, String(describing: key), String(reflecting: key), dumped] {
            #expect(!text.lowercased().contains("c9afa9d8"), "\(text)")
            #expect(!text.contains(String(0xc9af_a9d8_45ba_7516 as UInt64)))
            #expect(!text.contains(String(0x4e50_c3db_36e8_9b12 as UInt64)))
        }
        for error in [P256SigningKeyError.wrongLength(actual: 31), .scalarOutOfRange] {
            #expect(!error.description.isEmpty)
        }
    }

    /// Every signature of a few random keys verifies with OpenSSL (`openssl dgst -sha256
    /// -verify`), given the public key as SubjectPublicKeyInfo DER and the signature as DER.
    @Test func openSSLVerifies() throws {
        guard OpenSSLTool.url != nil else {
            #expect(!OpenSSLTool.isRequired, "openssl is required under CI=true")
            print("P256SigningKeyTests.openSSLVerifies skipped: openssl not found")
            return
        }
        var generator = SystemRandomNumberGenerator()
        try OpenSSLTool.withTemporaryDirectory { directory in
            for round in 0 ..< 8 {
                let key = try P256SigningKey(rawRepresentation: round == 0 ? Hex.bytes(Self.rfcKey.x) : Self.randomScalar(&generator))
                let message = Array("message \(round) \(UInt64.random(in: 0 ... .max, using: &generator))".utf8)
                let digest = HashAlgorithm.sha256.hash(message)
                try Data(OpenSSLTool.p256SubjectPublicKeyInfo(x963: key.publicKey.x963Representation)).write(
                    to: directory.appendingPathComponent("key.der"))
                try Data(message).write(to: directory.appendingPathComponent("message"))
                let signatures = [
                    key.derSignature(for: digest), ECDSASignatureDERForTests.encode(key.signature(for: digest, additionalRandomness: [UInt8(round)])),
                ]
                for (index, signature) in signatures.enumerated() {
                    try Data(signature).write(to: directory.appendingPathComponent("signature.der"))
                    let result = try #require(
                        try OpenSSLTool.run(
                            ["dgst", "-sha256", "-verify", "key.der", "-keyform", "DER", "-signature", "signature.der", "message"], in: directory))
                    #expect(
                        result.status == 0 && result.output.contains("Verified OK"),
                        "round \(round) signature \(index): \(result.output) \(result.error)")
                }
            }
        }
    }

    // MARK: helpers on big-endian 32-byte values

    static func randomScalar(_ generator: inout SystemRandomNumberGenerator) -> [UInt8] {
        while true {
            let bytes = (0 ..< 32).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            if bytes.lexicographicallyPrecedes(order) && bytes.contains(where: { $0 != 0 }) { return bytes }
        }
    }

    /// a − b for a ≥ b.
    static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 32), borrow = 0
        for index in (0 ..< 32).reversed() {
            let difference = Int(a[index]) - Int(b[index]) - borrow
            result[index] = UInt8((difference + 256) % 256)
            borrow = difference < 0 ? 1 : 0
        }
        return result
    }

    /// s > (n − 1)/2, i.e. s > n − s.
    static func isHigh(_ s: [UInt8]) -> Bool { subtract(order, s).lexicographicallyPrecedes(s) }

    static func lowS(_ s: [UInt8]) -> [UInt8] { isHigh(s) ? subtract(order, s) : s }
}

/// DER `SEQUENCE { r, s }` of a P1363 signature, written independently of the library's encoder.
enum ECDSASignatureDERForTests {
    static func encode(_ signature: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var content = Array(bytes.drop { $0 == 0 })
            if content.first.map({ $0 >= 0x80 }) ?? true { content.insert(0, at: 0) }
            return [0x02, UInt8(content.count)] + content
        }
        let body = integer(signature[..<32]) + integer(signature[32...])
        return [0x30, UInt8(body.count)] + body
    }
}
