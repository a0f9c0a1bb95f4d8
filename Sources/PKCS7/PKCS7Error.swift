import DER
import X509Certificates

/// A malformed PKCS#7/CMS structure: what was wrong and the byte offset of the element at fault.
/// Distinct from `VerificationError`, which says why well-formed data is not trusted.
public struct PKCS7Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public let kind: Kind
    /// Offset of the element at fault in the input given to the parser.
    public let offset: Int

    /// Makes an error of `kind` at byte `offset` of the parser's input.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// Wraps an encoding error.
    public init(_ error: ASN1Error) {
        self.init(.encoding(error.kind), at: error.offset)
    }

    /// Wraps an error from the X.509 layer, which reads the envelope's algorithm identifiers.
    public init(_ error: CertificateError) {
        switch error.kind {
        case .encoding(let kind): self.init(.encoding(kind), at: error.offset)
        case .unsupportedAlgorithm(let oid): self.init(.unsupportedAlgorithm(oid), at: error.offset)
        case .invalidAlgorithmParameters: self.init(.invalidAlgorithmParameters, at: error.offset)
        case .unsupportedVersion, .signatureAlgorithmMismatch, .defaultValueEncoded, .emptyList, .duplicateExtension,
            .invalidExtension, .invalidPublicKey, .invalidName, .certificateTooLarge, .tooManyExtensions:
            self.init(.certificate(error.kind), at: error.offset)
        }
    }

    /// Kinds of malformed PKCS#7/CMS structure.
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
        /// Signed attributes that break RFC 5652 §5.3 (missing, repeated or multi-valued
        /// content-type or message-digest).
        case invalidSignedAttributes
        /// More elements than the resource bounds allow.
        case tooManyElements
        /// An X.509 structure of the envelope outside its certificates (an algorithm identifier,
        /// the issuer Name a SignerInfo names its certificate by) is malformed.
        case certificate(CertificateError.Kind)
        /// The certificate at `index` (from 0) of the `certificates` set is malformed; the kind
        /// says which rule it breaks, the error's offset where.
        case embeddedCertificate(index: Int, CertificateError.Kind)
        /// The input is larger than `PKCS7Limits.maxInputSize` (its size in bytes).
        case inputTooLarge(count: Int)
    }

    public var description: String { "offset \(offset): \(kind.reason)" }
}

extension PKCS7Error.Kind {
    /// A one-line English description of the rule broken, without the offset.
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
        case .invalidSignedAttributes: return "invalid signed attributes"
        case .tooManyElements: return "too many elements"
        case .certificate(let kind): return kind.reason
        case .embeddedCertificate(let index, let kind): return "certificate \(index): \(kind.reason)"
        case .inputTooLarge(let count): return "input of \(count) bytes exceeds \(PKCS7Limits.maxInputSize)"
        }
    }
}

/// The value `read` gives, or its encoding error as a `PKCS7Error` (same kind and offset): how
/// the parsers of this module call the DER reader under typed throws.
@inline(__always)
func asn1<T>(_ read: @autoclosure () throws(ASN1Error) -> T) throws(PKCS7Error) -> T {
    do {
        return try read()
    } catch {
        throw PKCS7Error(error)
    }
}

/// The value `read` gives, or its X.509 error as a `PKCS7Error` (see `init(_: CertificateError)`).
@inline(__always)
func x509<T>(_ read: @autoclosure () throws(CertificateError) -> T) throws(PKCS7Error) -> T {
    do {
        return try read()
    } catch {
        throw PKCS7Error(error)
    }
}

extension ASN1Element {
    /// A `PKCS7Error` located at this element.
    func failure(_ kind: PKCS7Error.Kind) -> PKCS7Error { PKCS7Error(kind, at: offset) }
}
