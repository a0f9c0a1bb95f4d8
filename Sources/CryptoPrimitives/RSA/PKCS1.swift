/// EMSA-PKCS1-v1_5 encoding (RFC 8017 §9.2), shared by verification and the test signer
/// (ReceiptTestSupport's `RSAPrivateKey`, hence `package`).
package enum PKCS1 {
    /// DER of `DigestInfo ::= SEQUENCE { AlgorithmIdentifier { oid, NULL }, OCTET STRING (length) }`
    /// up to the hash bytes: RFC 8017 §9.2, note 1 (the one encoding, with the NULL parameters).
    static func digestInfoPrefix(_ algorithm: HashAlgorithm) -> [UInt8] {
        switch algorithm {
        case .sha1: sha1Prefix
        case .sha224: sha224Prefix
        case .sha256: sha256Prefix
        case .sha384: sha384Prefix
        case .sha512: sha512Prefix
        }
    }

    private static let sha1Prefix: [UInt8] = [0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14]
    private static let sha224Prefix: [UInt8] = [
        0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04, 0x05, 0x00, 0x04, 0x1c,
    ]
    private static let sha256Prefix: [UInt8] = [
        0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20,
    ]
    private static let sha384Prefix: [UInt8] = [
        0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30,
    ]
    private static let sha512Prefix: [UInt8] = [
        0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40,
    ]

    /// Writes EM = 0x00 ‖ 0x01 ‖ PS (0xff…, at least 8) ‖ 0x00 ‖ DigestInfo ‖ hash into all of
    /// `output` (emLen = its count). Returns `false` when the digest length does not match the
    /// algorithm or emLen < tLen + 11 (RFC 8017 §9.2 step 3).
    package static func encode(_ digest: Digest, _ algorithm: HashAlgorithm, into output: UnsafeMutableRawBufferPointer) -> Bool {
        guard digest.count == algorithm.digestByteCount else { return false }
        let prefix = digestInfoPrefix(algorithm)
        let infoLength = prefix.count + digest.count
        guard output.count >= infoLength + 11 else { return false }
        let separator = output.count - infoLength - 1
        output[0] = 0x00
        output[1] = 0x01
        for index in 2 ..< separator { output[index] = 0xff }
        output[separator] = 0x00
        prefix.withUnsafeBytes { bytes in
            UnsafeMutableRawBufferPointer(rebasing: output[(separator + 1)...]).copyMemory(from: bytes)
        }
        digest.withUnsafeBytes { hash in
            UnsafeMutableRawBufferPointer(rebasing: output[(output.count - hash.count)...]).copyMemory(from: hash)
        }
        return true
    }
}
