import DER

/// A malformed X.509 structure (a certificate, a public key, an algorithm identifier): what was
/// wrong and the byte offset of the element at fault. Distinct from `VerificationError`, which
/// says why a well-formed certificate is not trusted.
public struct CertificateError: Error, Sendable, Hashable, CustomStringConvertible {
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

    /// Kinds of malformed X.509 structure.
    public enum Kind: Sendable, Hashable {
        /// The bytes are not valid DER where they must be.
        case encoding(ASN1Error.Kind)
        /// A version number the structure does not allow.
        case unsupportedVersion(Int64)
        /// An algorithm this toolkit does not implement.
        case unsupportedAlgorithm(ASN1ObjectIdentifier)
        /// Algorithm parameters other than the ones the algorithm defines.
        case invalidAlgorithmParameters
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
        /// A public key that does not decode, or a key outside the accepted parameters.
        case invalidPublicKey
        /// A Name (issuer, subject, or a name that identifies a certificate) breaks the Name
        /// grammar; the rule says which part (RFC 5280 §4.1.2.4).
        case invalidName(NameRule)
        /// The certificate is larger than `X509Limits.maxCertificateSize` (its size in bytes).
        case certificateTooLarge(Int)
        /// More extensions than `X509Limits.maxExtensions`.
        case tooManyExtensions
    }

    public var description: String { "offset \(offset): \(kind.reason)" }
}

extension CertificateError.Kind {
    /// One line saying what is wrong.
    public var reason: String {
        switch self {
        case .encoding(let kind): return kind.reason
        case .unsupportedVersion(let v): return "unsupported version \(v)"
        case .unsupportedAlgorithm(let oid): return "unsupported algorithm \(oid)"
        case .invalidAlgorithmParameters: return "invalid algorithm parameters"
        case .signatureAlgorithmMismatch: return "certificate signature algorithms differ"
        case .defaultValueEncoded: return "DEFAULT value encoded explicitly"
        case .emptyList: return "empty list where at least one element is required"
        case .duplicateExtension(let oid): return "duplicate extension \(oid)"
        case .invalidExtension(let oid): return "invalid extension \(oid)"
        case .invalidPublicKey: return "invalid public key"
        case .invalidName(let rule): return "invalid name: \(rule.reason)"
        case .certificateTooLarge(let size): return "certificate of \(size) bytes exceeds \(X509Limits.maxCertificateSize)"
        case .tooManyExtensions: return "more than \(X509Limits.maxExtensions) extensions"
        }
    }
}

/// The value `read` gives, or its encoding error as a `CertificateError` (same kind and offset):
/// how the parsers of this module call the DER reader under typed throws.
@inline(__always)
func asn1<T>(_ read: @autoclosure () throws(ASN1Error) -> T) throws(CertificateError) -> T {
    do {
        return try read()
    } catch {
        throw CertificateError(error)
    }
}

extension ASN1Element {
    /// A `CertificateError` located at this element.
    func failure(_ kind: CertificateError.Kind) -> CertificateError { CertificateError(kind, at: offset) }
}
