import CryptoPrimitives
import DER

/// Reads P-256 private keys from the files people have: Apple's App Store Connect `.p8`
/// downloads (PKCS#8 `PrivateKeyInfo` in PEM, `-----BEGIN PRIVATE KEY-----`), PKCS#8 DER, and
/// SEC 1 `ECPrivateKey` PEM (`-----BEGIN EC PRIVATE KEY-----`, OpenSSL's `ec` output) or DER.
///
/// Here rather than in CryptoPrimitives, which imports nothing of ours: the structures are read
/// with the DER module. The key's bytes pass through base64 decoding without table look-ups
/// (`ConstantTimeBase64`); the DER around them is public structure. A public key in the file
/// must match the private one. Errors never carry key bytes.
public enum P256PrivateKeyFile {
    /// A key from PEM text: the first block labelled `PRIVATE KEY` (PKCS#8) or `EC PRIVATE KEY`
    /// (SEC 1); other blocks (`EC PARAMETERS`) are skipped.
    public static func signingKey(pem text: [UInt8]) throws(P256PrivateKeyFileError) -> P256SigningKey {
        let blocks = PEMBlock.blocks(in: text)
        guard !blocks.isEmpty else { throw .notPEM }
        for block in blocks {
            switch block.label {
            case "PRIVATE KEY": return try signingKey(pkcs8DER: try decoded(block))
            case "EC PRIVATE KEY": return try signingKey(sec1DER: try decoded(block))
            case "ENCRYPTED PRIVATE KEY": throw .encryptedKey
            case "RSA PRIVATE KEY": throw .rsaKey
            default: continue
            }
        }
        throw .notAPrivateKey
    }

    /// A key from PEM text given as a string; see the byte overload.
    public static func signingKey(pem text: String) throws(P256PrivateKeyFileError) -> P256SigningKey {
        try signingKey(pem: Array(text.utf8))
    }

    /// A key from PKCS#8 DER (RFC 5208 §5, RFC 5958 §2):
    ///
    ///     PrivateKeyInfo ::= SEQUENCE { version INTEGER (0 or 1),
    ///         privateKeyAlgorithm AlgorithmIdentifier, privateKey OCTET STRING,
    ///         attributes [0] IMPLICIT Attributes OPTIONAL, publicKey [1] IMPLICIT BIT STRING OPTIONAL }
    ///
    /// with id-ecPublicKey and the namedCurve prime256v1 (RFC 5480 §2.1.1), the OCTET STRING
    /// holding an ECPrivateKey (RFC 5915 §3).
    public static func signingKey(pkcs8DER bytes: [UInt8]) throws(P256PrivateKeyFileError) -> P256SigningKey {
        let inner: [UInt8] = try reading(bytes) { (reader: inout ASN1Reader) throws(P256PrivateKeyFileError) -> [UInt8] in
            var info = try asn1 { () throws(ASN1Error) in try reader.readSequence() }
            let version = try asn1 { () throws(ASN1Error) in try info.readInt64() }
            guard version == 0 || version == 1 else { throw .wrongVersion }
            var algorithm = try asn1 { () throws(ASN1Error) in try info.readSequence() }
            let oid = try asn1 { () throws(ASN1Error) in try algorithm.read(.objectIdentifier).objectIdentifierValue() }
            if oid == OIDs.rsaEncryption { throw .rsaKey }
            guard oid == OIDs.ecPublicKey else { throw .unsupportedAlgorithm }
            try requireP256(try namedCurve(&algorithm))
            try asn1 { () throws(ASN1Error) in try algorithm.finish() }
            let key = try asn1 { () throws(ASN1Error) in try info.read(.octetString).content }
            // attributes [0] and (version 1) publicKey [1] are optional; nothing else may follow.
            try asn1 { () throws(ASN1Error) in
                _ = try info.readOptional(.contextSpecific(0))
                _ = try info.readOptional(.contextSpecific(1, constructed: false))
                try info.finish()
            }
            return Array(key)
        }
        return try signingKey(ecPrivateKey: inner, curveKnown: true)
    }

    /// A key from SEC 1 ECPrivateKey DER (RFC 5915 §3, SEC 1 §C.4), which must name P-256 in
    /// its parameters.
    public static func signingKey(sec1DER bytes: [UInt8]) throws(P256PrivateKeyFileError) -> P256SigningKey {
        try signingKey(ecPrivateKey: bytes, curveKnown: false)
    }

    /// ECPrivateKey ::= SEQUENCE { version INTEGER (1), privateKey OCTET STRING,
    /// parameters [0] ECParameters OPTIONAL, publicKey [1] BIT STRING OPTIONAL } (RFC 5915 §3).
    /// `curveKnown`: PKCS#8's algorithm named the curve, so the parameters may be absent.
    private static func signingKey(ecPrivateKey bytes: [UInt8], curveKnown: Bool) throws(P256PrivateKeyFileError) -> P256SigningKey {
        let (scalar, publicPoint) = try reading(bytes) { (reader: inout ASN1Reader) throws(P256PrivateKeyFileError) -> ([UInt8], [UInt8]?) in
            var fields = try asn1 { () throws(ASN1Error) in try reader.readSequence() }
            guard try asn1({ () throws(ASN1Error) in try fields.readInt64() }) == 1 else { throw .wrongVersion }
            let scalar = Array(try asn1 { () throws(ASN1Error) in try fields.read(.octetString).content })
            if let parameters = try asn1({ () throws(ASN1Error) in try fields.readOptional(.contextSpecific(0)) }) {
                var inside = try asn1 { () throws(ASN1Error) in try parameters.children() }
                try requireP256(try namedCurve(&inside))
                try asn1 { () throws(ASN1Error) in try inside.finish() }
            } else if !curveKnown {
                throw .missingCurve
            }
            var point: [UInt8]? = nil
            if let publicKey = try asn1({ () throws(ASN1Error) in try fields.readOptional(.contextSpecific(1)) }) {
                var inside = try asn1 { () throws(ASN1Error) in try publicKey.children() }
                let bits = try asn1 { () throws(ASN1Error) in try inside.readBitString() }
                try asn1 { () throws(ASN1Error) in try inside.finish() }
                guard bits.isOctetAligned else { throw .publicKeyMismatch }
                point = Array(bits.bytes)
            }
            try asn1 { () throws(ASN1Error) in try fields.finish() }
            return (scalar, point)
        }
        // SEC 1 §C.4 / RFC 5915: ⌈log2 n / 8⌉ = 32 octets; shorter encodings (leading zeros
        // dropped by some old writers) are padded back.
        guard scalar.count <= 32 else { throw .invalidPrivateKey }
        let key: P256SigningKey
        do {
            key = try P256SigningKey(rawRepresentation: [UInt8](repeating: 0, count: 32 - scalar.count) + scalar)
        } catch {
            throw .invalidPrivateKey
        }
        if let publicPoint, publicPoint != key.publicKey.x963Representation { throw .publicKeyMismatch }
        return key
    }

    /// The namedCurve OID of ECParameters / the EC AlgorithmIdentifier's parameters (RFC 5480
    /// §2.1.1: implicitCurve and specifiedCurve are not allowed here).
    private static func namedCurve(_ reader: inout ASN1Reader) throws(P256PrivateKeyFileError) -> ASN1ObjectIdentifier {
        guard try asn1({ () throws(ASN1Error) in try reader.peekTag() }) == .objectIdentifier else { throw .unsupportedCurve }
        return try asn1 { () throws(ASN1Error) in try reader.read(.objectIdentifier).objectIdentifierValue() }
    }

    private static func requireP256(_ curve: ASN1ObjectIdentifier) throws(P256PrivateKeyFileError) {
        if curve == OIDs.secp384r1 { throw .p384Key }
        guard curve == OIDs.secp256r1 else { throw .unsupportedCurve }
    }

    private static func decoded(_ block: PEMBlock) throws(P256PrivateKeyFileError) -> [UInt8] {
        guard let bytes = ConstantTimeBase64.decode(block.body) else { throw .invalidBase64 }
        return bytes
    }

    /// Runs `body` over a DER reader of `bytes`, then requires that nothing follows.
    private static func reading<R>(
        _ bytes: [UInt8], _ body: (inout ASN1Reader) throws(P256PrivateKeyFileError) -> R
    ) throws(P256PrivateKeyFileError) -> R {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(P256PrivateKeyFileError) -> R in
                var reader = ASN1Reader(raw, rules: .der)
                let value = try body(&reader)
                try asn1 { () throws(ASN1Error) in try reader.finish() }
                return value
            }
        }
        return try result.get()
    }

    /// The DER reader's error as `.malformed`.
    private static func asn1<R>(_ body: () throws(ASN1Error) -> R) throws(P256PrivateKeyFileError) -> R {
        do { return try body() } catch { throw .malformed(error) }
    }
}
