import CryptoPrimitives
import DER
import X509Certificates

/// An RSA public key of any size and exponent that signs nothing: what an attacker puts in a
/// certificate to make a verifier do expensive arithmetic (an RSA-8192 modulus with exponent
/// 2^64 − 1 costs about 100 times Apple's RSA-2048 with e = 65537). Its "signatures" are zeros.
public struct UnusableRSAKey: TestCertificateKey {
    public let modulus: [UInt8]
    public let exponent: [UInt8]

    /// A key whose modulus has `bits` bits (odd, top bit set, the rest from `seed`).
    public init(bits: Int, exponent: [UInt8] = [UInt8](repeating: 0xFF, count: 8), seed: UInt64 = 1) {
        var random = SplitMix64(seed: seed)
        var modulus = (0 ..< (bits + 7) / 8).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let topBit = (bits - 1) % 8
        modulus[0] = modulus[0] & UInt8((1 << (topBit + 1)) - 1) | UInt8(1 << topBit)
        modulus[modulus.count - 1] |= 1
        self.modulus = modulus
        self.exponent = exponent
    }

    public var subjectPublicKeyInfo: [UInt8] {
        let key = DERParts.encode { rsa in
            rsa.appendSequence { fields in
                fields.appendUnsignedInteger(modulus)
                fields.appendUnsignedInteger(exponent)
            }
        }
        return DERParts.encode { der in
            der.appendSequence { spki in
                spki.appendSequence { algorithm in
                    algorithm.appendObjectIdentifier(OIDs.rsaEncryption)
                    algorithm.appendNull()
                }
                spki.appendBitString(key)
            }
        }
    }

    public func signatureAlgorithm(_ hash: HashAlgorithm) -> [UInt8] { TestKeys.rsa2048[0].signatureAlgorithm(hash) }

    public func signatureValue(digest: Digest, hash: HashAlgorithm) -> [UInt8] { [UInt8](repeating: 0, count: modulus.count) }
}

/// Receipts built to cost a verifier as much as possible without any Apple key: the shapes of
/// issue "Hostile clients", for tests and for the benchmarks' hostile rows. Each is signed by
/// `TestChain`'s keys where a signature must verify; `variant` changes a serial number so that
/// every variant is new to caches.
public enum HostileReceipts {
    /// `count` certificates holding `UnusableRSAKey`s of `bits` bits and exponent 2^64 − 1, named
    /// as the chain's intermediate (so that a path search would try each), carried beside the
    /// genuine chain, under `signerInfos` copies of the one SignerInfo.
    public static func junkCertificates(
        count: Int = 12, bits: Int = 8192, signerInfos: Int = 4,
        chain: TestChain = TestChain(), variant: UInt64 = 0
    ) -> [UInt8] {
        let junk = (0 ..< count).map { index in
            var certificate = chain.intermediate
            certificate.key = UnusableRSAKey(bits: bits, seed: variant &* 1000 &+ UInt64(index))
            certificate.serialNumber = [0x7F, UInt8(truncatingIfNeeded: index)] + bigEndian(variant)
            return certificate.signed(issuerName: chain.root.subjectName, issuerKey: chain.root.key)
        }
        let receipt = chain.signedData(TestReceipt().payload(), certificates: chain.certificates + junk).encoded()
        return repeatingSignerInfo(receipt, times: signerInfos)
    }

    /// A chain that really verifies with the largest RSA keys the App Store rules allow (4096
    /// bits, e = 65537) up to a self-made root of the App Store's shape: the most public-key
    /// operations (signer, two links) a receipt can cost and still be refused, at `notTrusted`.
    public static func selfMadeRSA4096Chain(variant: UInt64 = 0) -> [UInt8] {
        var chain = TestChain()
        chain.root.key = TestKeys.rsa4096
        chain.intermediate.key = TestKeys.rsa4096
        chain.leaf.key = TestKeys.rsa4096
        chain.leaf.serialNumber = [0x15] + bigEndian(variant)
        return chain.receipt(TestReceipt())
    }

    /// `receipt` (DER ContentInfo) with its SignerInfo repeated `times` times.
    public static func repeatingSignerInfo(_ receipt: [UInt8], times: Int) -> [UInt8] {
        DERParts.editing(receipt, at: [1, 0]) { signedData in
            var parts = DERParts.children(signedData)
            let signerInfo = DERParts.children(parts[parts.count - 1])[0]
            parts[parts.count - 1] = DERParts.wrap(0x31, Array(repeating: signerInfo, count: times))
            return DERParts.wrap(0x30, parts)
        }
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0 ..< 8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}
