import DER
import X509Certificates

/// The two versions of the transaction receipt signature.
public enum LegacyReceiptVersion: UInt8, Sendable, Hashable, CaseIterable {
    /// RSA-1024 "PurchaseReceiptCertificate" signers under Apple iTunes Store Certification Authority.
    case v2 = 2
    /// RSA-2048 "Mac App Store and iTunes Store Receipt Signing" signers under the 2013 WWDR CA.
    case v3 = 3

    /// The length of this version's RSA signature: the signer's modulus length.
    public var signatureByteCount: Int {
        switch self {
        case .v2: return 128
        case .v3: return 256
        }
    }
}

/// The decoded `signature` value of a transaction receipt: one version byte, the RSA PKCS#1 v1.5
/// signature (128 bytes for version 2, 256 for version 3), a 4-byte big-endian length, and that
/// many bytes of DER certificate (the signer), with nothing after.
public struct LegacySignature: Sendable {
    /// Longest signer certificate accepted: Apple's are 0.9–1.5 KB; 16 KiB bounds the parse.
    public static let maxCertificateSize = 16 * 1024

    /// The version byte, 2 or 3.
    public let version: LegacyReceiptVersion
    /// The signature bytes, exactly `version.signatureByteCount` long.
    public let signature: [UInt8]
    /// The signer's certificate.
    public let certificate: Certificate

    /// Reads a signature blob; each violation of the layout is its own `LegacySignatureError`.
    public init(_ blob: [UInt8]) throws(LegacySignatureError) {
        guard let first = blob.first else { throw .empty }
        guard let version = LegacyReceiptVersion(rawValue: first) else { throw .unsupportedVersion(first) }
        // A blob laid out for the other version's signature length (a changed version byte) is
        // named as such, rather than as whatever its misread length field would say.
        for other in LegacyReceiptVersion.allCases where other != version {
            if Self.layoutFits(blob, signatureByteCount: other.signatureByteCount)
                && !Self.layoutFits(blob, signatureByteCount: version.signatureByteCount)
            {
                throw .versionDoesNotMatchSignatureLength(version: first, signatureByteCount: other.signatureByteCount)
            }
        }
        let signatureEnd = 1 + version.signatureByteCount
        guard blob.count >= signatureEnd else { throw .truncatedSignature(expected: version.signatureByteCount, available: blob.count - 1) }
        guard blob.count >= signatureEnd + 4 else { throw .truncatedLength(offset: signatureEnd) }
        let declared = blob[signatureEnd ..< signatureEnd + 4].reduce(0) { $0 << 8 | Int($1) }
        let start = signatureEnd + 4
        let available = blob.count - start
        guard declared <= available else { throw .certificateLengthPastEnd(declared: declared, available: available) }
        guard declared <= Self.maxCertificateSize else { throw .certificateTooLarge(declared: declared) }
        let encoded = Self.encodedLength(blob, at: start)
        guard encoded == declared else { throw .certificateLengthMismatch(declared: declared, encoded: encoded) }
        guard declared == available else { throw .trailingBytes(count: available - declared, offset: start + declared) }
        do {
            certificate = try Certificate(derEncoded: Array(blob[start...]))
        } catch {
            throw .malformedCertificate(error)
        }
        self.version = version
        signature = Array(blob[1 ..< signatureEnd])
    }

    /// Whether the blob reads as signature ‖ length ‖ exactly that many bytes of one DER element.
    static func layoutFits(_ blob: [UInt8], signatureByteCount: Int) -> Bool {
        let lengthAt = 1 + signatureByteCount
        guard blob.count >= lengthAt + 4 else { return false }
        let declared = blob[lengthAt ..< lengthAt + 4].reduce(0) { $0 << 8 | Int($1) }
        return declared == blob.count - lengthAt - 4 && encodedLength(blob, at: lengthAt + 4) == declared
    }

    /// Header plus content length of the DER element at `start` (0 when there is none): what the
    /// certificate's own encoding says its length is.
    static func encodedLength(_ blob: [UInt8], at start: Int) -> Int? {
        guard start < blob.count else { return nil }
        return blob[start...].withUnsafeBytes { raw -> Int? in
            var reader = ASN1Reader(raw, rules: .der)
            guard let element = try? reader.readElement() else { return nil }
            return element.encodedLength
        }
    }
}

/// Why a `signature` value is not a transaction receipt signature blob.
public enum LegacySignatureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The signature decodes to no bytes.
    case empty
    /// The version byte is neither 2 nor 3.
    case unsupportedVersion(UInt8)
    /// The blob is laid out for a signature of another length than the version byte's (version 2
    /// signatures are 128 bytes, version 3 256).
    case versionDoesNotMatchSignatureLength(version: UInt8, signatureByteCount: Int)
    /// The blob ends inside the signature.
    case truncatedSignature(expected: Int, available: Int)
    /// The blob ends inside the 4-byte certificate length at `offset`.
    case truncatedLength(offset: Int)
    /// The certificate length runs past the end of the blob.
    case certificateLengthPastEnd(declared: Int, available: Int)
    /// The certificate length exceeds `LegacySignature.maxCertificateSize`.
    case certificateTooLarge(declared: Int)
    /// The certificate length is not the length of the DER certificate that follows (`encoded`,
    /// `nil` when no DER element can be read there).
    case certificateLengthMismatch(declared: Int, encoded: Int?)
    /// Bytes after the certificate.
    case trailingBytes(count: Int, offset: Int)
    /// The certificate is not a valid DER X.509 certificate.
    case malformedCertificate(CertificateError)

    public var description: String {
        switch self {
        case .empty: return "signature is empty"
        case .unsupportedVersion(let byte): return "signature version \(byte) is neither 2 nor 3"
        case .versionDoesNotMatchSignatureLength(let version, let count):
            return "signature version \(version) does not match its \(count)-byte signature"
        case .truncatedSignature(let expected, let available):
            return "signature of \(available) bytes where version needs \(expected)"
        case .truncatedLength(let offset): return "offset \(offset): signature ends inside the certificate length"
        case .certificateLengthPastEnd(let declared, let available):
            return "certificate length \(declared) runs past the \(available) bytes left"
        case .certificateTooLarge(let declared): return "certificate length \(declared) exceeds \(LegacySignature.maxCertificateSize)"
        case .certificateLengthMismatch(let declared, let encoded):
            return "certificate length \(declared) is not the certificate's encoded length \(encoded.map(String.init) ?? "(none)")"
        case .trailingBytes(let count, let offset): return "offset \(offset): \(count) bytes after the certificate"
        case .malformedCertificate(let error): return "signer certificate: \(error)"
        }
    }
}
