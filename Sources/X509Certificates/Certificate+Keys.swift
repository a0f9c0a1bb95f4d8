import CryptoPrimitives
import DER

extension Certificate {
    /// The RSA public key, or `invalidPublicKey` when the key is not RSA or breaks the key rules.
    public func rsaPublicKey() throws(CertificateError) -> RSAPublicKey {
        try RSAPublicKey(publicKey, in: storage, at: publicKeyInfoRange.lowerBound)
    }

    /// The ECDSA public key, or `invalidPublicKey` when the key is not id-ecPublicKey on P-256 or
    /// P-384 (RFC 5480 §2.1.1: named curves only), or its point fails validation (SEC 1 §3.2.2.1:
    /// uncompressed, coordinates below p, on the curve).
    public func ecdsaPublicKey() throws(CertificateError) -> ECDSAPublicKey {
        guard case .ec(let curveOID, let point) = publicKey, let curve = EllipticCurve(oid: curveOID) else {
            throw CertificateError(.invalidPublicKey, at: publicKeyInfoRange.lowerBound)
        }
        do {
            return try storage.withRawBytes { (raw) throws(ECKeyError) in
                try ECDSAPublicKey(curve: curve, x963Representation: UnsafeRawBufferPointer(rebasing: raw[point]))
            }
        } catch {
            throw CertificateError(.invalidPublicKey, at: publicKeyInfoRange.lowerBound)
        }
    }
}

extension EllipticCurve {
    /// The curve a namedCurve identifier names (RFC 5480 §2.1.1.1), if this toolkit implements it.
    public init?(oid: ASN1ObjectIdentifier) {
        switch oid {
        case OIDs.secp256r1: self = .p256
        case OIDs.secp384r1: self = .p384
        default: return nil
        }
    }
}
