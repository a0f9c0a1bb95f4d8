import CryptoPrimitives
import DER
import X509Certificates

/// Bounds on what a SignedData may hold; beyond them parsing fails with `inputTooLarge` or
/// `tooManyElements`. Within them decoding is linear in the input.
public enum PKCS7Limits: Sendable {
    /// Largest input `SignedData(berEncoded:)` reads, in bytes. A receipt with 10,000 in-app
    /// purchases takes about 3 MB, one at `ReceiptLimits.maxInAppPurchases` under 16 MB; the
    /// bound keeps what one call may read (and what a base64 caller may have to decode) finite.
    public static let maxInputSize = 16 << 20
    /// Certificates in the `certificates` set (real receipts carry 1 or 3; a path has at most
    /// `ChainBuilder`'s 6 intermediates plus signer and root, and the rest is room for the
    /// re-issued intermediates some receipts carry beside the ones that signed).
    public static let maxCertificates = 16
    /// SignerInfos (receipts carry exactly one).
    public static let maxSignerInfos = 4
    /// Entries in `digestAlgorithms` (receipts carry one). RFC 5652 §5.1 lists one per digest the
    /// SignerInfos use, so with `maxSignerInfos` signers at most 4 distinct ones are meaningful;
    /// 8 leaves room for repeats.
    public static let maxDigestAlgorithms = 8
}

/// A PKCS#7/CMS SignedData (RFC 5652 §5) inside its ContentInfo, decoded from DER or BER.
///
/// Owns one copy of the input (no copy at all when given a `[UInt8]`) and keeps ranges into it:
/// the ranges of `signerInfos` are offsets in the bytes given to `init(berEncoded:)`. Every
/// embedded certificate is parsed while decoding, with the same strict parser whether or not a
/// path will use it (see `certificates`), so a malformed one makes the whole message malformed;
/// verification reuses the parsed certificates.
public struct SignedData: Sendable {
    /// The input bytes.
    package let storage: [UInt8]
    /// SignedData version (1 or 3).
    public let version: Int
    /// digestAlgorithms.
    public let digestAlgorithms: [HashAlgorithm]
    /// The encapsulated content: the eContent OCTET STRING element's range, and whether it is
    /// one primitive string (`contentRange` then gives the content octets).
    let contentElementRange: Range<Int>
    /// The content octets when eContent is primitive (the App Store's receipts); `nil` when BER
    /// segments it (Xcode receipts), in which case `withContent` joins the segments.
    package let contentRange: Range<Int>?
    /// Total number of content octets.
    public let contentCount: Int
    /// Every embedded certificate, in the order given, parsed as `Certificate(derEncoded:)`
    /// parses: strict DER, Names to their grammar, known extensions decoded, duplicates and
    /// unknown critical extensions recorded. What is decided for a certificate no path uses:
    /// - it must parse: a malformed one makes the SignedData malformed
    ///   (`PKCS7Error.Kind.embeddedCertificate`), as OpenSSL refuses such a message;
    /// - its extensions are parsed as a path certificate's are (a malformed known extension or a
    ///   duplicate is malformed), but its unhandled critical extensions, CA constraints and key
    ///   usage are judged only on a path (RFC 5280 §6.1 processes path certificates);
    /// - its signature is never checked and its validity period never compared with the
    ///   validation time: nothing relies on what it says;
    /// - its public key is parsed for structure only (`PublicKeyInfo`); the RSA key rules apply
    ///   when a path uses the key.
    public let certificates: [Certificate]
    /// Each embedded certificate's encoding, in the order given.
    package var certificateRanges: [Range<Int>] { certificates.map { $0.range } }
    /// signerInfos, in order (at least one).
    public let signerInfos: [SignerInfo]

    /// Decodes a ContentInfo holding SignedData with id-data content, DER or BER. Anything after
    /// the ContentInfo is an error.
    public init(berEncoded bytes: [UInt8]) throws(PKCS7Error) {
        guard bytes.count <= PKCS7Limits.maxInputSize else { throw PKCS7Error(.inputTooLarge(count: bytes.count), at: 0) }
        self = try bytes.withRawBytes { (raw) throws(PKCS7Error) in
            var reader = ASN1Reader(raw, rules: .ber)
            let value = try SignedData(reading: &reader, storage: bytes)
            try asn1(reader.finish())
            return value
        }
    }

    private init(reading reader: inout ASN1Reader, storage: [UInt8]) throws(PKCS7Error) {
        self.storage = storage
        // ContentInfo ::= SEQUENCE { contentType, content [0] EXPLICIT ANY } (RFC 5652 §3).
        var contentInfo = try asn1(reader.readSequence())
        let typeElement = try asn1(contentInfo.read(.objectIdentifier))
        guard OIDs.signedData.matches(try asn1(typeElement.objectIdentifierBytes())) else {
            throw typeElement.failure(.notSignedData)
        }
        var explicit = try asn1(contentInfo.read(.contextSpecific(0)).children())
        try asn1(contentInfo.finish())
        var fields = try asn1(explicit.readSequence())
        try asn1(explicit.finish())

        // SignedData (RFC 5652 §5.1).
        let versionElement = try asn1(fields.read(.integer))
        let version = try asn1(versionElement.int64Value())
        guard version == 1 || version == 3 else { throw versionElement.failure(.unsupportedVersion(version)) }
        self.version = Int(version)

        var digests: [HashAlgorithm] = []
        var digestSet = try asn1(fields.read(.set).children())
        while !digestSet.isAtEnd {
            guard digests.count < PKCS7Limits.maxDigestAlgorithms else { throw PKCS7Error(.tooManyElements, at: digestSet.offset) }
            digests.append(try x509(AlgorithmIdentifier.readDigest(&digestSet)))
        }
        digestAlgorithms = digests

        // EncapsulatedContentInfo ::= SEQUENCE { eContentType, eContent [0] EXPLICIT OCTET STRING OPTIONAL }
        var encapsulated = try asn1(fields.readSequence())
        let contentTypeElement = try asn1(encapsulated.read(.objectIdentifier))
        guard OIDs.data.matches(try asn1(contentTypeElement.objectIdentifierBytes())) else {
            throw contentTypeElement.failure(.unsupportedContentType(try asn1(contentTypeElement.objectIdentifierValue())))
        }
        guard let contentWrapper = try asn1(encapsulated.readOptional(.contextSpecific(0))) else {
            throw contentTypeElement.failure(.missingContent)
        }
        try asn1(encapsulated.finish())
        var wrapped = try asn1(contentWrapper.children())
        let contentElement = try asn1(wrapped.readElement())
        try asn1(wrapped.finish())
        guard contentElement.tag.asPrimitive == .octetString else {
            throw contentElement.failure(.encoding(.unexpectedTag(expected: .octetString, found: contentElement.tag)))
        }
        let content = try asn1(contentElement.octetStringValue())
        contentElementRange = contentElement.range
        contentRange = content.contiguousRange
        contentCount = content.count

        // certificates [0] IMPLICIT CertificateSet OPTIONAL: plain certificates only, any order.
        certificates = try Self.readCertificates(asn1(fields.readOptional(.contextSpecific(0))), storage: storage)
        _ = try asn1(fields.readOptional(.contextSpecific(1)))   // crls: not used

        var signers: [SignerInfo] = []
        let signerSet = try asn1(fields.read(.set))
        var signerEntries = try asn1(signerSet.children())
        while !signerEntries.isAtEnd {
            guard signers.count < PKCS7Limits.maxSignerInfos else { throw signerSet.failure(.tooManyElements) }
            signers.append(try SignerInfo(reading: &signerEntries))
        }
        guard !signers.isEmpty else { throw signerSet.failure(.noSignerInfo) }
        signerInfos = signers
        try asn1(fields.finish())
    }

    /// Calls `body` with the signed content octets: in place when contiguous, else joined into
    /// a temporary array.
    public func withContent<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        if let contentRange {
            return try storage.withRawBytes { (raw) throws(E) -> R in try body(UnsafeRawBufferPointer(rebasing: raw[contentRange])) }
        }
        return try contentBytes().withRawBytes(body)
    }

    /// The signed content octets, copied.
    public func contentBytes() -> [UInt8] {
        if let contentRange { return Array(storage[contentRange]) }
        var out: [UInt8] = []
        out.reserveCapacity(contentCount)
        forEachContentSegment { out.append(contentsOf: $0) }
        return out
    }

    /// Calls `body` with each segment of the content in order (one call when contiguous).
    public func forEachContentSegment(_ body: (UnsafeRawBufferPointer) -> Void) {
        storage.withUnsafeBytes { raw in
            // Already validated while decoding, so walking it again cannot fail.
            var reader = ASN1Reader(
                UnsafeRawBufferPointer(rebasing: raw[contentElementRange]), rules: .ber,
                baseOffset: contentElementRange.lowerBound)
            try? reader.readElement().octetStringValue().forEachSegment(body)
        }
    }

    /// The digest of the content under `algorithm`.
    public func contentDigest(_ algorithm: HashAlgorithm) -> Digest {
        var hasher = DigestHasher(algorithm)
        forEachContentSegment { hasher.update($0) }
        return hasher.finalize()
    }

    /// Parses each element of the `certificates` set, naming the certificate by its index when
    /// one is malformed.
    private static func readCertificates(_ set: ASN1Element?, storage: [UInt8]) throws(PKCS7Error) -> [Certificate] {
        guard let set else { return [] }
        var entries = try asn1(set.children())
        var certificates: [Certificate] = []
        while !entries.isAtEnd {
            let entry = try asn1(entries.readElement())
            // CertificateChoices (RFC 5652 §10.2.2): only the plain certificate alternative.
            guard entry.tag == .sequence else { throw entry.failure(.unsupportedCertificateFormat) }
            guard certificates.count < PKCS7Limits.maxCertificates else { throw entry.failure(.tooManyElements) }
            // A copy of an embedded anchor (receipts carry Apple Root CA or the StoreKit
            // certificate) takes the anchor's parse: the same parser read the same bytes.
            if let anchor = TrustAnchor.embeddedCertificate(encodedAs: entry, in: storage) {
                certificates.append(anchor)
                continue
            }
            do {
                certificates.append(try Certificate(element: entry, storage: storage))
            } catch {
                throw PKCS7Error(.embeddedCertificate(index: certificates.count, error.kind), at: error.offset)
            }
        }
        return certificates
    }
}
