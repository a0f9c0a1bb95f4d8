import CryptoPrimitives
import DER
import X509Certificates

/// Bounds on what a SignedData may hold; beyond them parsing fails with `tooManyElements`.
public enum PKCS7Limits: Sendable {
    /// Certificates in the `certificates` set (real receipts carry 1 or 3).
    public static let maxCertificates = 16
    /// SignerInfos (receipts carry exactly one).
    public static let maxSignerInfos = 4
}

/// A PKCS#7/CMS SignedData (RFC 5652 §5) inside its ContentInfo, decoded from DER or BER.
///
/// Owns one copy of the input (`storage`; no copy at all when given a `[UInt8]`) and keeps ranges
/// into it. Certificates are located but parsed only when verification asks for them
/// (`certificates()`), so decoding a receipt costs one walk of the envelope.
public struct SignedData: Sendable {
    /// The input bytes.
    public let storage: [UInt8]
    /// SignedData version (1 or 3).
    public let version: Int
    /// digestAlgorithms.
    public let digestAlgorithms: [HashAlgorithm]
    /// The encapsulated content: the eContent OCTET STRING element's range, and whether it is
    /// one primitive string (`contentRange` then gives the content octets).
    let contentElementRange: Range<Int>
    /// The content octets when eContent is primitive (the App Store's receipts); `nil` when BER
    /// segments it (Xcode receipts), in which case `withContent` joins the segments.
    public let contentRange: Range<Int>?
    /// Total number of content octets.
    public let contentCount: Int
    /// Each embedded certificate's encoding, in the order given.
    public let certificateRanges: [Range<Int>]
    /// signerInfos, in order (at least one).
    public let signerInfos: [SignerInfo]

    /// Decodes a ContentInfo holding SignedData with id-data content, DER or BER. Anything after
    /// the ContentInfo is an error.
    public init(berEncoded bytes: [UInt8]) throws(PKCS7Error) {
        self = try PKCS7Error.wrapping {
            try bytes.withUnsafeBytes { raw in
                var reader = ASN1Reader(raw, rules: .ber)
                let value = try SignedData(reading: &reader, storage: bytes)
                try reader.finish()
                return value
            }
        }
    }

    private init(reading reader: inout ASN1Reader, storage: [UInt8]) throws {
        self.storage = storage
        // ContentInfo ::= SEQUENCE { contentType, content [0] EXPLICIT ANY } (RFC 5652 §3).
        var contentInfo = try reader.readSequence()
        let typeElement = try contentInfo.read(.objectIdentifier)
        guard OIDs.signedData.matches(try typeElement.objectIdentifierBytes()) else {
            throw typeElement.failure(.notSignedData)
        }
        var explicit = try contentInfo.read(.contextSpecific(0)).children()
        try contentInfo.finish()
        var fields = try explicit.readSequence()
        try explicit.finish()

        // SignedData (RFC 5652 §5.1).
        let versionElement = try fields.read(.integer)
        let version = try versionElement.int64Value()
        guard version == 1 || version == 3 else { throw versionElement.failure(.unsupportedVersion(version)) }
        self.version = Int(version)

        var digests: [HashAlgorithm] = []
        var digestSet = try fields.read(.set).children()
        while !digestSet.isAtEnd { digests.append(try AlgorithmIdentifier.readDigest(&digestSet)) }
        digestAlgorithms = digests

        // EncapsulatedContentInfo ::= SEQUENCE { eContentType, eContent [0] EXPLICIT OCTET STRING OPTIONAL }
        var encapsulated = try fields.readSequence()
        let contentTypeElement = try encapsulated.read(.objectIdentifier)
        guard OIDs.data.matches(try contentTypeElement.objectIdentifierBytes()) else {
            throw contentTypeElement.failure(.unsupportedContentType(try contentTypeElement.objectIdentifierValue()))
        }
        guard let contentWrapper = try encapsulated.readOptional(.contextSpecific(0)) else {
            throw contentTypeElement.failure(.missingContent)
        }
        try encapsulated.finish()
        var wrapped = try contentWrapper.children()
        let contentElement = try wrapped.readElement()
        try wrapped.finish()
        guard contentElement.tag.asPrimitive == .octetString else {
            throw contentElement.failure(.encoding(.unexpectedTag(expected: .octetString, found: contentElement.tag)))
        }
        let content = try contentElement.octetStringValue()
        contentElementRange = contentElement.range
        contentRange = content.contiguousRange
        contentCount = content.count

        // certificates [0] IMPLICIT CertificateSet OPTIONAL: plain certificates only, any order.
        var certificates: [Range<Int>] = []
        if let set = try fields.readOptional(.contextSpecific(0)) {
            var entries = try set.children()
            while !entries.isAtEnd {
                let entry = try entries.readElement()
                guard entry.tag == .sequence else { throw entry.failure(.unsupportedCertificateFormat) }
                guard certificates.count < PKCS7Limits.maxCertificates else { throw entry.failure(.tooManyElements) }
                certificates.append(entry.range)
            }
        }
        certificateRanges = certificates
        _ = try fields.readOptional(.contextSpecific(1))   // crls: not used

        var signers: [SignerInfo] = []
        let signerSet = try fields.read(.set)
        var signerEntries = try signerSet.children()
        while !signerEntries.isAtEnd {
            guard signers.count < PKCS7Limits.maxSignerInfos else { throw signerSet.failure(.tooManyElements) }
            signers.append(try SignerInfo(reading: &signerEntries))
        }
        guard !signers.isEmpty else { throw signerSet.failure(.noSignerInfo) }
        signerInfos = signers
        try fields.finish()
    }

    /// Calls `body` with the signed content octets: in place when contiguous, else joined into
    /// a temporary array.
    public func withContent<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if let contentRange {
            return try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[contentRange])) }
        }
        return try contentBytes().withUnsafeBytes(body)
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
            var reader = ASN1Reader(UnsafeRawBufferPointer(rebasing: raw[contentElementRange]), rules: .ber,
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

    /// Parses every embedded certificate (strict DER). A certificate whose exact bytes are one of
    /// `known` (already parsed, e.g. trust anchors, which receipts often embed) is reused as it is.
    public func certificates(reusing known: [Certificate] = []) throws(CertificateError) -> [Certificate] {
        try CertificateError.wrapping {
            try storage.withUnsafeBytes { raw in
                try certificateRanges.map { range in
                    if let same = known.first(where: { $0.encoded == storage[range] }) { return same }
                    var reader = ASN1Reader(UnsafeRawBufferPointer(rebasing: raw[range]), rules: .der, baseOffset: range.lowerBound)
                    return try Certificate(reading: &reader, storage: storage)
                }
            }
        }
    }
}
