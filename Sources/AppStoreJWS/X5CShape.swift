import CryptoPrimitives
import X509Certificates

/// The shape rules on an `x5c` chain (RFC 7515 §4.1.6: the signing certificate first, each next
/// one certifying the one before). Apple's tokens carry the whole path, root included, so the
/// chain must be exactly the path the policy builds, ending at one of its anchors byte for byte.
enum X5CShape {
    /// Before any key is used: the number of certificates the policy implies, and the last one an
    /// anchor. A signer that is itself an anchor (Xcode's certificate) stands alone.
    static func check(_ x5c: [Certificate], policy: TrustPolicy) throws(JWSError) {
        if policy.isAnchor(x5c[0]) {
            guard x5c.count == 1 else { throw .unexpectedChainLength(expected: 1, found: x5c.count) }
            return
        }
        if let intermediates = policy.requiredIntermediateCount, x5c.count != intermediates + 2 {
            throw .unexpectedChainLength(expected: intermediates + 2, found: x5c.count)
        }
        let root = x5c[x5c.count - 1]
        guard x5c.count >= 2, policy.isAnchor(root) else { throw .rootNotTrusted(certificate: EncodedCertificate(root)) }
    }

    /// After the path is built: it is the `x5c` chain itself, in order, with nothing left over.
    static func checkPath(_ path: [Certificate], is x5c: [Certificate]) throws(JWSError) {
        guard path.count == x5c.count, zip(path, x5c).allSatisfy({ ExactBytes($0.encoded) == ExactBytes($1.encoded) }) else {
            throw .unexpectedChainLength(expected: path.count, found: x5c.count)
        }
    }
}
