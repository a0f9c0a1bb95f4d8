import CryptoPrimitives
import DER
import X509Certificates

/// A throwaway key that a test certificate holds and signs other certificates (and CMS signer
/// infos) with: RSA (`TestSigningKey`) or ECDSA (`TestECSigningKey`), so chains can mix them.
public protocol TestCertificateKey: Sendable {
    /// The DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7).
    var subjectPublicKeyInfo: [UInt8] { get }
    /// The DER AlgorithmIdentifier of this key's signatures with `hash` (RFC 4055 §5 for RSA,
    /// with NULL parameters; RFC 5758 §3.2 for ECDSA, without parameters).
    func signatureAlgorithm(_ hash: HashAlgorithm) -> [UInt8]
    /// A signature over an already computed digest, as certificates and CMS carry it: the
    /// PKCS#1 v1.5 block for RSA, a DER `ECDSA-Sig-Value` for ECDSA.
    func signatureValue(digest: Digest, hash: HashAlgorithm) -> [UInt8]
}

extension TestSigningKey: TestCertificateKey {
    public var subjectPublicKeyInfo: [UInt8] {
        var keyDER = DERWriter()
        keyDER.appendSequence { rsa in
            rsa.appendUnsignedInteger(modulus)
            rsa.appendUnsignedInteger(publicExponent)
        }
        var der = DERWriter()
        der.appendSequence { spki in
            spki.appendSequence { algorithm in
                algorithm.appendObjectIdentifier(OIDs.rsaEncryption)
                algorithm.appendNull()
            }
            spki.appendBitString(keyDER.bytes)
        }
        return der.bytes
    }

    public func signatureAlgorithm(_ hash: HashAlgorithm) -> [UInt8] {
        var der = DERWriter()
        der.appendSequence { algorithm in
            algorithm.appendObjectIdentifier(TestCertificate.rsaSignatureOID(hash))
            algorithm.appendNull()
        }
        return der.bytes
    }

    public func signatureValue(digest: Digest, hash: HashAlgorithm) -> [UInt8] {
        sign(digest: digest, algorithm: hash)
    }
}

extension TestECSigningKey: TestCertificateKey {
    /// `id-ecPublicKey` with the named curve and the uncompressed point (RFC 5480 §2).
    public var subjectPublicKeyInfo: [UInt8] {
        var der = DERWriter()
        der.appendSequence { spki in
            spki.appendSequence { algorithm in
                algorithm.appendObjectIdentifier(OIDs.ecPublicKey)
                algorithm.appendObjectIdentifier(curve == .p256 ? OIDs.secp256r1 : OIDs.secp384r1)
            }
            spki.appendBitString(x963)
        }
        return der.bytes
    }

    public func signatureAlgorithm(_ hash: HashAlgorithm) -> [UInt8] {
        var der = DERWriter()
        der.appendSequence { $0.appendObjectIdentifier(TestCertificate.ecdsaSignatureOID(hash)) }
        return der.bytes
    }

    public func signatureValue(digest: Digest, hash: HashAlgorithm) -> [UInt8] {
        signDER(digest: digest)
    }
}
