import CryptoPrimitives

extension SignatureAlgorithm {
    /// The key type the algorithm needs.
    public enum KeyFamily: Sendable, Hashable {
        /// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2).
        case rsa
        /// ECDSA (FIPS 186-5 §6, RFC 5758 §3.2).
        case ecdsa
    }

    /// The key type this algorithm signs with.
    public var keyFamily: KeyFamily {
        switch self {
        case .rsaEncryption, .rsaWithHash: .rsa
        case .ecdsaWithHash: .ecdsa
        }
    }
}

extension Certificate {
    /// Checks a signature made with this certificate's key over an already computed `digest`,
    /// encoded as X.509 and CMS carry it: the PKCS#1 v1.5 block for RSA keys (RFC 8017 §8.2.2),
    /// a DER `ECDSA-Sig-Value` for EC keys (RFC 5758 §3.2, SEC 1 §4.1.4). `hash` names the digest's
    /// algorithm. The key must be of the family the algorithm names: an RSA algorithm never runs
    /// with an EC key, nor the reverse: such a key is `invalidPublicKey`, naming this certificate.
    package func isValidSignature(
        _ signature: UnsafeRawBufferPointer, digest: Digest, hash: HashAlgorithm,
        family: SignatureAlgorithm.KeyFamily
    ) throws(VerificationError) -> Bool {
        do {
            switch family {
            case .rsa:
                return try rsaPublicKey().isValidSignature(signature, digest: digest, algorithm: hash)
            case .ecdsa:
                return try ecdsaPublicKey().isValidSignature(derEncoded: signature, digest: digest)
            }
        } catch {
            throw .invalidPublicKey(subject: subjectName)
        }
    }
}
