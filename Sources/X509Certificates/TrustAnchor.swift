import CryptoPrimitives
import DER

/// A certificate trusted by configuration, not by anything a receipt carries. Paths end at an
/// anchor; its own signature is not checked (RFC 5280 §6.1: the trust anchor is an input to path
/// validation), but its validity period, critical extensions and CA constraints are, as most
/// verifiers do (a root with pathLenConstraint 0 cannot sign through two intermediates).
public struct TrustAnchor: Sendable {
    /// The anchor's certificate.
    public let certificate: Certificate
    /// SHA-256 of the certificate's DER.
    public let fingerprint: Digest

    /// Uses a parsed certificate as an anchor.
    public init(certificate: Certificate) {
        self.certificate = certificate
        fingerprint = certificate.fingerprint
    }

    /// Parses a DER certificate to use as an anchor.
    public init(derEncoded der: [UInt8]) throws(CertificateError) {
        self.init(certificate: try Certificate(derEncoded: der))
    }

    /// Pinned SHA-256 of Apple Root CA.
    public static let appleRootCAFingerprint = "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024"
    /// Pinned SHA-256 of the StoreKit testing certificate.
    public static let storeKitTestingFingerprint = "ff0ba36e721d2db741d2aa11e6112ef78bf7131b46c7f035b00891d045c864fe"

    /// Apple Root CA, embedded; `nil` if the embedded bytes do not match the pinned fingerprint
    /// (then the App Store policy has no anchor and trusts nothing).
    public static let appleRootCA: TrustAnchor? = pinned(EmbeddedCertificates.appleRootCA, appleRootCAFingerprint)

    /// The StoreKit testing certificate, embedded and pinned like `appleRootCA`.
    public static let storeKitTesting: TrustAnchor? = pinned(EmbeddedCertificates.storeKitTesting, storeKitTestingFingerprint)

    /// Pinned SHA-256 of Apple Root CA - G3.
    public static let appleRootCAG3Fingerprint = "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179"
    /// Pinned SHA-256 of the "StoreKit Testing in Xcode" certificate that signs Xcode's JWS.
    public static let storeKitTestingInXcodeFingerprint = "16c47dfe09825de02ac3fa40126ee5f81747941955fbc18a7696a6246a733c7a"

    /// Apple Root CA - G3 (ECDSA P-384), the root of StoreKit 2 signed data: embedded and pinned
    /// like `appleRootCA`.
    public static let appleRootCAG3: TrustAnchor? = pinned(EmbeddedCertificates.appleRootCAG3, appleRootCAG3Fingerprint)

    /// Xcode's self-signed "StoreKit Testing in Xcode" certificate (ECDSA P-256), which signs
    /// StoreKit 2 data in Xcode directly: embedded and pinned like `appleRootCA`.
    public static let storeKitTestingInXcode: TrustAnchor? = pinned(
        EmbeddedCertificates.storeKitTestingInXcode,
        storeKitTestingInXcodeFingerprint)

    private static func pinned(_ der: [UInt8], _ fingerprint: String) -> TrustAnchor? {
        Certificate.pinned(der, fingerprint).map(TrustAnchor.init(certificate:))
    }
}

extension Certificate {
    /// An embedded certificate, only if `der` parses and its SHA-256 is `fingerprint` (hex): a
    /// corrupted copy yields `nil`, so nothing chains through it. For this package's embedded
    /// anchors and intermediates.
    package static func pinned(_ der: [UInt8], _ fingerprint: String) -> Certificate? {
        guard let certificate = try? Certificate(derEncoded: der), certificate.fingerprint.description == fingerprint else { return nil }
        return certificate
    }
}
