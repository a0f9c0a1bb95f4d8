import CryptoPrimitives
import DER

// The DER form of an ECDSA signature, as certificates carry it (RFC 5480 §2.2, RFC 5758 §3.2):
//
//     ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }

extension ECDSAPublicKey {
    /// Verifies a DER `ECDSA-Sig-Value` over `digest`. The encoding is read strictly (X.690
    /// §10: definite, minimal lengths; minimal INTEGERs, §8.3.2; nothing after the SEQUENCE or
    /// after s), r and s must be positive; anything else is refused before any arithmetic. Then
    /// as `isValidSignature(r:s:digest:)`: both in [1, n − 1] and the signature verifies.
    public func isValidSignature(derEncoded signature: UnsafeRawBufferPointer, digest: Digest) -> Bool {
        guard let (r, s) = ECDSASignatureValue.integers(signature) else { return false }
        return isValidSignature(r: r, s: s, digest: digest)
    }

    /// Verifies a DER `ECDSA-Sig-Value` held in an array; see the buffer overload.
    public func isValidSignature(derEncoded signature: [UInt8], digest: Digest) -> Bool {
        signature.withUnsafeBytes { isValidSignature(derEncoded: $0, digest: digest) }
    }
}

/// The strict DER reader of `ECDSA-Sig-Value`.
enum ECDSASignatureValue {
    /// r and s as big-endian magnitudes (views into `bytes`), or `nil` when the bytes are not
    /// exactly one DER SEQUENCE of two non-negative INTEGERs.
    static func integers(_ bytes: UnsafeRawBufferPointer) -> (r: UnsafeRawBufferPointer, s: UnsafeRawBufferPointer)? {
        do {
            var reader = ASN1Reader(bytes, rules: .der)
            var sequence = try reader.readSequence()
            try reader.finish()   // no bytes after the SEQUENCE
            let r = try sequence.read(.integer).unsignedIntegerBytes()   // minimal, not negative
            let s = try sequence.read(.integer).unsignedIntegerBytes()
            try sequence.finish()   // nothing after s
            return (r, s)
        } catch {
            return nil
        }
    }
}
