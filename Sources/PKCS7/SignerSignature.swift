import CryptoPrimitives
import DER
import X509Certificates

/// The signature a SignerInfo carries over the content (RFC 5652 §5.4–5.6).
enum SignerSignature {
    /// Certificates the SignerInfo names: issuer and serial number, or subjectKeyIdentifier.
    /// Copies of one certificate (an anchor the message also carries) count once: the same
    /// bytes, compared as `ExactBytes` (eight at a time) as the chain and JWS code do.
    static func certificates(matching signer: SignerInfo, in storage: [UInt8], among certificates: [Certificate]) -> [Certificate] {
        var matching: [Certificate] = []
        for certificate in certificates where names(certificate, signer, storage) {
            if !matching.contains(where: { ExactBytes($0.encoded) == ExactBytes(certificate.encoded) }) { matching.append(certificate) }
        }
        return matching
    }

    private static func names(_ certificate: Certificate, _ signer: SignerInfo, _ storage: [UInt8]) -> Bool {
        switch signer.identifier {
        case .issuerAndSerialNumber(let issuer, let serial):
            return certificate.issuer == storage[issuer] && certificate.serialNumber == storage[serial]
        case .subjectKeyIdentifier(let identifier):
            return certificate.extensions.subjectKeyIdentifier.map { $0[...] == storage[identifier] } ?? false
        }
    }

    /// Checks the signature with `certificate`'s key. Without signed attributes it covers the
    /// content's digest; with them, their DER with the SET tag in place of `[0]` (§5.4), and
    /// they must carry content-type = eContentType and message-digest = digest of the content.
    static func check(_ signer: SignerInfo, of signedData: SignedData, with certificate: Certificate) throws(VerificationError) {
        let hash = signer.digestAlgorithm
        // shaNWithRSAEncryption and ecdsa-with-SHAn name a hash that must be the digest algorithm;
        // bare rsaEncryption takes it from the digest algorithm (RFC 5652 §5.3, RFC 5754 §3).
        if let named = signer.signatureAlgorithm.hash, named != hash { throw .digestAlgorithmMismatch }
        let storage = signedData.storage
        let contentDigest = signedData.contentDigest(hash)
        let signedDigest: Digest
        if let attributes = signer.signedAttributes {
            guard OIDs.data.encodedContent[...] == storage[attributes.contentTypeRange] else { throw .contentTypeMismatch }
            let matches = storage.withUnsafeBytes { raw in
                contentDigest.withUnsafeBytes { constantTimeEquals($0, UnsafeRawBufferPointer(rebasing: raw[attributes.messageDigestRange])) }
            }
            guard matches else { throw .messageDigestMismatch }
            var hasher = DigestHasher(hash)
            hasher.update([0x31])
            storage.withUnsafeBytes {
                hasher.update(UnsafeRawBufferPointer(rebasing: $0[(attributes.range.lowerBound + 1) ..< attributes.range.upperBound]))
            }
            signedDigest = hasher.finalize()
        } else {
            signedDigest = contentDigest
        }
        let valid = try storage.withUnsafeBytes { raw in
            Result { () throws(VerificationError) in
                try certificate.isValidSignature(
                    UnsafeRawBufferPointer(rebasing: raw[signer.signatureRange]), digest: signedDigest,
                    hash: hash, family: signer.signatureAlgorithm.keyFamily)
            }
        }.get()
        guard valid else { throw .signatureInvalid(subject: certificate.subjectName) }
    }
}
