import DER

/// A malformed OCSP response (RFC 6960 §4.2.1): what was wrong and the byte offset of the element
/// at fault in the response. Distinct from `OCSPError`, which says why a well-formed response
/// does not vouch for a certificate.
public struct OCSPResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public let kind: Kind
    /// Offset of the element at fault in the response bytes.
    public let offset: Int

    /// Makes an error of `kind` at byte `offset` of the response.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// Kinds of malformed OCSP response.
    public enum Kind: Sendable, Hashable {
        /// The bytes are not valid DER where they must be.
        case encoding(ASN1Error.Kind)
        /// A certificate, name or algorithm identifier inside the response is malformed.
        case certificate(CertificateError.Kind)
        /// The response is larger than `OCSPLimits.maxResponseSize` (its size in bytes).
        case responseTooLarge(Int)
        /// An OCSPResponseStatus value RFC 6960 §4.2.1 does not define.
        case unknownResponseStatus(Int64)
        /// A successful response without responseBytes.
        case missingResponseBytes
        /// An unsuccessful response with responseBytes (RFC 6960 §4.2.1: only successful ones carry them).
        case unexpectedResponseBytes
        /// A responseType other than id-pkix-ocsp-basic.
        case unsupportedResponseType(ASN1ObjectIdentifier)
        /// A ResponseData version other than v1.
        case unsupportedVersion(Int64)
        /// A field holding its DEFAULT value explicitly, which DER forbids (X.690 §11.5).
        case defaultValueEncoded
        /// A responses list with no SingleResponse.
        case noSingleResponse
        /// More SingleResponses than `OCSPLimits.maxResponses`.
        case tooManyResponses
        /// More certificates than `OCSPLimits.maxCertificates`.
        case tooManyCertificates
        /// More extensions in one list than `OCSPLimits.maxExtensions`, or an empty list.
        case invalidExtensionCount
        /// An extension appears twice in one list.
        case duplicateExtension(ASN1ObjectIdentifier)
        /// A critical extension this reader does not process (only the nonce is processed).
        case unhandledCriticalExtension(ASN1ObjectIdentifier)
        /// A hash in a CertID or a byKey responder identifier whose length is not its algorithm's.
        case invalidHashLength
        /// A CRLReason value RFC 5280 §5.3.1 does not define.
        case invalidRevocationReason(Int64)
        /// The signature BIT STRING is not whole octets.
        case invalidSignature
    }

    public var description: String { "offset \(offset): \(kind.reason)" }

}

extension OCSPResponseError {
    /// An encoding error, same kind and offset.
    init(_ error: ASN1Error) { self.init(.encoding(error.kind), at: error.offset) }
}

/// The value `read` gives, or its encoding error as an `OCSPResponseError` (same kind and offset).
@inline(__always)
func ocspDER<T>(_ read: @autoclosure () throws(ASN1Error) -> T) throws(OCSPResponseError) -> T {
    do {
        return try read()
    } catch {
        throw OCSPResponseError(error)
    }
}

/// The value `read` gives, or its certificate error as an `OCSPResponseError` (an encoding error
/// stays one; another kind becomes `.certificate`).
@inline(__always)
func ocspX509<T>(_ read: @autoclosure () throws(CertificateError) -> T) throws(OCSPResponseError) -> T {
    do {
        return try read()
    } catch {
        if case .encoding(let kind) = error.kind { throw OCSPResponseError(.encoding(kind), at: error.offset) }
        throw OCSPResponseError(.certificate(error.kind), at: error.offset)
    }
}

extension OCSPResponseError.Kind {
    /// One line saying what is wrong.
    public var reason: String {
        switch self {
        case .encoding(let kind): return kind.reason
        case .certificate(let kind): return kind.reason
        case .responseTooLarge(let size): return "OCSP response of \(size) bytes exceeds \(OCSPLimits.maxResponseSize)"
        case .unknownResponseStatus(let value): return "unknown OCSP response status \(value)"
        case .missingResponseBytes: return "successful OCSP response without responseBytes"
        case .unexpectedResponseBytes: return "unsuccessful OCSP response with responseBytes"
        case .unsupportedResponseType(let oid): return "unsupported OCSP response type \(oid)"
        case .unsupportedVersion(let value): return "unsupported OCSP ResponseData version \(value)"
        case .defaultValueEncoded: return "DEFAULT value encoded explicitly"
        case .noSingleResponse: return "OCSP response without a SingleResponse"
        case .tooManyResponses: return "more than \(OCSPLimits.maxResponses) SingleResponses"
        case .tooManyCertificates: return "more than \(OCSPLimits.maxCertificates) certificates"
        case .invalidExtensionCount: return "empty extension list or more than \(OCSPLimits.maxExtensions) extensions"
        case .duplicateExtension(let oid): return "duplicate extension \(oid)"
        case .unhandledCriticalExtension(let oid): return "unhandled critical extension \(oid)"
        case .invalidHashLength: return "hash of the wrong length for its algorithm"
        case .invalidRevocationReason(let value): return "invalid revocation reason \(value)"
        case .invalidSignature: return "signature is not whole octets"
        }
    }
}

extension ASN1Element {
    /// An `OCSPResponseError` located at this element.
    func ocspFailure(_ kind: OCSPResponseError.Kind) -> OCSPResponseError { OCSPResponseError(kind, at: offset) }
}

/// Resource bounds on OCSP responses, beyond the reader's nesting limit and `X509Limits`. Past
/// them parsing fails with its own `OCSPResponseError` kind; within them the work is linear.
public enum OCSPLimits: Sendable {
    /// Largest response accepted, in bytes. A response about one certificate with a delegated
    /// responder certificate takes 0.5–3 KB (an RSA-4096 responder: about 2.5 KB);
    /// 64 KiB leaves room for `maxCertificates` certificates of `X509Limits.maxCertificateSize`.
    public static let maxResponseSize = 64 * 1024
    /// Most SingleResponses in one response. This toolkit asks about one certificate a request;
    /// responders that add others (CA/Browser Forum responders answer for a few) stay well below.
    public static let maxResponses = 32
    /// Most certificates in a BasicOCSPResponse's `certs`: the delegated responder certificate,
    /// sometimes with its issuer.
    public static let maxCertificates = 4
    /// Most extensions in one list (responseExtensions, singleExtensions).
    public static let maxExtensions = 16
}
