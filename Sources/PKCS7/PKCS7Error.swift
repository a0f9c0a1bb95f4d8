import DER

/// A malformed PKCS#7/CMS or X.509 structure: what was wrong and the byte offset of the element
/// at fault. Distinct from `VerificationError`, which says why well-formed data is not trusted.
public struct PKCS7Error: Error, Sendable, Hashable, CustomStringConvertible {
    public let kind: Kind
    /// Offset of the element at fault in the input given to the parser.
    public let offset: Int

    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// Wraps an encoding error.
    public init(_ error: ASN1Error) {
        self.init(.encoding(error.kind), at: error.offset)
    }

    public enum Kind: Sendable, Hashable {
        /// The bytes are not valid DER/BER where they must be.
        case encoding(ASN1Error.Kind)
        /// ContentInfo's contentType is not signedData (RFC 5652 §3).
        case notSignedData
        /// A version number the structure does not allow.
        case unsupportedVersion(Int64)
        /// eContentType is not id-data.
        case unsupportedContentType(ASN1ObjectIdentifier)
        /// The signed content is absent (detached signatures are not receipts).
        case missingContent
        /// signerInfos is empty.
        case noSignerInfo
        /// An algorithm this toolkit does not implement.
        case unsupportedAlgorithm(ASN1ObjectIdentifier)
        /// Algorithm parameters other than the ones the algorithm defines.
        case invalidAlgorithmParameters
        /// SignerInfo version and sid choice disagree (RFC 5652 §5.3).
        case signerIdentifierMismatch
        /// A CertificateChoices alternative other than a plain certificate.
        case unsupportedCertificateFormat
        /// The certificate's inner and outer signature algorithms differ (RFC 5280 §4.1.1.2).
        case signatureAlgorithmMismatch
        /// A field holding its DEFAULT value explicitly, which DER forbids (X.690 §11.5).
        case defaultValueEncoded
        /// A `SEQUENCE SIZE (1..MAX) OF` that is empty (extensions, extended key usages, policies).
        case emptyList
        /// An extension appears twice (RFC 5280 §4.2).
        case duplicateExtension(ASN1ObjectIdentifier)
        /// An extension whose value does not decode as its type.
        case invalidExtension(ASN1ObjectIdentifier)
        /// A public key that does not decode, or an RSA key outside the accepted parameters.
        case invalidPublicKey
        /// Signed attributes that break RFC 5652 §5.3 (missing, repeated or multi-valued
        /// content-type or message-digest).
        case invalidSignedAttributes
        /// More elements than the resource bounds allow.
        case tooManyElements
    }

    public var description: String { "offset \(offset): \(kind.reason)" }
}

extension PKCS7Error.Kind {
    public var reason: String {
        switch self {
        case .encoding(let kind): return kind.reason
        case .notSignedData: return "not a PKCS#7 SignedData"
        case .unsupportedVersion(let v): return "unsupported version \(v)"
        case .unsupportedContentType(let oid): return "unsupported content type \(oid)"
        case .missingContent: return "signed content is absent"
        case .noSignerInfo: return "no SignerInfo"
        case .unsupportedAlgorithm(let oid): return "unsupported algorithm \(oid)"
        case .invalidAlgorithmParameters: return "invalid algorithm parameters"
        case .signerIdentifierMismatch: return "SignerInfo version does not match its identifier"
        case .unsupportedCertificateFormat: return "unsupported certificate format"
        case .signatureAlgorithmMismatch: return "certificate signature algorithms differ"
        case .defaultValueEncoded: return "DEFAULT value encoded explicitly"
        case .emptyList: return "empty list where at least one element is required"
        case .duplicateExtension(let oid): return "duplicate extension \(oid)"
        case .invalidExtension(let oid): return "invalid extension \(oid)"
        case .invalidPublicKey: return "invalid public key"
        case .invalidSignedAttributes: return "invalid signed attributes"
        case .tooManyElements: return "too many elements"
        }
    }
}

extension PKCS7Error {
    /// Runs `body`, turning encoding errors into `PKCS7Error`. The parsers below throw either type.
    @inlinable
    static func wrapping<T>(_ body: () throws -> T) throws(PKCS7Error) -> T {
        do {
            return try body()
        } catch let error as PKCS7Error {
            throw error
        } catch let error as ASN1Error {
            throw PKCS7Error(error)
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }
}

extension ASN1Element {
    /// A `PKCS7Error` located at this element.
    func failure(_ kind: PKCS7Error.Kind) -> PKCS7Error { PKCS7Error(kind, at: offset) }
}
