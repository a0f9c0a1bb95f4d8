import CryptoPrimitives
import DER

extension Certificate {
    /// The RSA public key, or `invalidPublicKey` when the key is not RSA or breaks the key rules.
    public func rsaPublicKey() throws(CertificateError) -> RSAPublicKey {
        try RSAPublicKey(publicKey, in: storage, at: publicKeyInfoRange.lowerBound)
    }
}
