import CryptoPrimitives

/// A certificate's subject (or issuer) Name as the certificate encodes it, for errors that name
/// a certificate: its DER bytes, a slice of the certificate's storage (no copy; the slice keeps
/// that storage alive), compared and hashed byte for byte.
///
/// Creating one costs nothing, so a verifier can name every failed candidate an attacker's
/// message makes it try; the text a person reads, `DistinguishedName.describe`'s, is built only
/// when `description` is asked for. Two names that read alike but are encoded differently (a
/// PrintableString and a UTF8String of the same letters) are different names, as they are to
/// the chain builder.
public struct CertificateName: Sendable, Hashable, CustomStringConvertible {
    /// The Name's whole DER encoding (the RDNSequence, header included).
    public let der: ArraySlice<UInt8>

    /// The Name encoded as `der`, which is not checked here (a malformed one describes itself as
    /// `<malformed name>`).
    public init(der: ArraySlice<UInt8>) {
        self.der = der
    }

    /// `C=US,O=Apple Inc.,OU=…,CN=…`: `DistinguishedName.describe(der)`, built on each call.
    public var description: String { DistinguishedName.describe(der) }
}

/// A certificate as its DER encoding, for errors that name a certificate by its SHA-256 (a chain
/// that ends at a certificate no policy trusts): a slice of the storage the certificate was
/// read from (no copy), compared and hashed byte for byte.
///
/// Nothing is hashed or formatted when one is created; `fingerprint` hashes the bytes each time
/// it is read, and `description` is that hash in lowercase hex.
public struct EncodedCertificate: Sendable, Hashable, CustomStringConvertible {
    /// The certificate's whole DER encoding.
    public let der: ArraySlice<UInt8>

    /// The certificate encoded as `der`.
    public init(der: ArraySlice<UInt8>) {
        self.der = der
    }

    /// The encoding of `certificate`, sharing its storage.
    public init(_ certificate: Certificate) {
        der = certificate.encoded
    }

    /// SHA-256 of `der`, computed on each call.
    public var fingerprint: Digest { der.withUnsafeBytes { SHA256.hash($0) } }

    /// `fingerprint` in lowercase hex, 64 digits.
    public var description: String { fingerprint.description }
}
