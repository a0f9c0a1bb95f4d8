/// The rules on a message's certificates that need no public-key operation, checked before any
/// signature is: what cannot lead to one of the policy's anchors costs nothing to refuse.
package enum MessageCertificates {
    /// Every certificate's key fits `policy.keyRules`; under `requiresKnownIssuers`, every
    /// certificate that is not self-issued names an issuer found among `certificates` or the
    /// anchors (RFC 5280 §6.1: a path needs each issuer; none can be fetched here).
    package static func check(_ certificates: [Certificate], policy: TrustPolicy) throws(VerificationError) {
        for certificate in certificates {
            try policy.keyRules.check(certificate)
            if policy.requiresKnownIssuers, !certificate.isSelfIssued, !hasIssuer(certificate, among: certificates, policy) {
                throw .issuerNotPresent(subject: certificate.subjectName)
            }
        }
    }

    private static func hasIssuer(_ certificate: Certificate, among certificates: [Certificate], _ policy: TrustPolicy) -> Bool {
        certificates.contains { $0.subject == certificate.issuer }
            || policy.anchors.contains { $0.certificate.subject == certificate.issuer }
    }
}
