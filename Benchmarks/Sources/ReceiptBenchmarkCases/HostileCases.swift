import PKCS7
import ReceiptTestSupport
import X509Certificates

/// The worst receipts issue "Hostile clients" measured, refused under the App Store policy, timed
/// beside `verify/production` (a genuine receipt): what a request without any Apple signature can
/// cost. Every body returns 0 (refused); one that accepted would return 1 and abort the run.
enum HostileCases {
    /// 12 junk RSA-8192 certificates with exponent 2^64 − 1 under 4 SignerInfos (refused by shape,
    /// before any public-key operation), and with one SignerInfo (refused by key size).
    static func junk(signerInfos: Int) -> BenchmarkCase {
        refusal(
            "hostile/junk-rsa8192-\(signerInfos)-signers",
            HostileReceipts.junkCertificates(count: 12, bits: 8192, signerInfos: signerInfos))
    }

    /// A chain that really verifies with RSA-4096 keys up to a self-made root: the most work a
    /// refused receipt can cost within the App Store key rules (three operations).
    static func selfMadeChain() -> BenchmarkCase {
        refusal("hostile/self-made-rsa4096-chain", HostileReceipts.selfMadeRSA4096Chain())
    }

    static func refusal(_ name: String, _ bytes: [UInt8]) -> BenchmarkCase {
        let store = OpenSSL.TrustStore(anchorDER: Fixtures.appleRootDER)
        return BenchmarkCase(
            name: name, expected: 0, byteCount: bytes.count,
            implementations: [
                Implementation(
                    peer: .ours,
                    body: .sync {
                        (try? Ours.verify(bytes, policy: .appStore, linkStore: nil)) == nil ? 0 : 1
                    }),
                Implementation(peer: .openssl, body: .sync { (try? OpenSSL.verify(bytes, store: store)) == nil ? 0 : 1 }),
            ], target: .hostile)
    }
}
