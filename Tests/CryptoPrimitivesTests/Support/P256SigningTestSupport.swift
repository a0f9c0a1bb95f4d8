@testable import CryptoPrimitives
import ReceiptTestSupport

/// The constant-time signer's parts on plain arrays, for the package's tests.
extension ECArithmeticTestSupport {
    /// The first `count` RFC 6979 candidates for the 32-byte private key and the digest, by the
    /// signer's `P256NonceGenerator` and by the generic `DeterministicNonce`, big-endian bytes.
    static func p256Nonces(privateKey: [UInt8], digest: Digest, additionalData: [UInt8], count: Int) -> (
        signer: [[UInt8]], generic: [[UInt8]]
    ) {
        let x = privateKey.withUnsafeBytes { LimbVector(bigEndian: $0, count: 4)! }
        var fast = P256NonceGenerator(privateKey: x, digest: digest, additionalData: additionalData)
        var slow = DeterministicNonce<P256>(privateKey: x, digest: digest, hash: .sha256, additionalData: additionalData)
        let signer = (0 ..< count).map { _ in DeterministicNonce<P256>.octets(fast.next()) }
        let generic = (0 ..< count).map { _ in DeterministicNonce<P256>.octets(slow.next()) }
        return (signer, generic)
    }
}
