#if hasFeature(Embedded)
    /// The revocation checker a verifier holds. Embedded Swift has no existentials of
    /// `RevocationChecker`, so there it is this wrapper around any conformer's `status` method.
    public struct AnyRevocationChecker: RevocationChecker {
        private let statusOf: @Sendable (Certificate, Certificate, Int64) throws(RevocationCheckError) -> RevocationStatus

        /// Wraps `checker`.
        public init<Checker: RevocationChecker>(_ checker: Checker) {
            statusOf = { (certificate, issuer, time) throws(RevocationCheckError) in
                try checker.status(of: certificate, issuedBy: issuer, at: time)
            }
        }

        /// The wrapped checker's status of `certificate`, issued by `issuer`, at `time`.
        public func status(of certificate: Certificate, issuedBy issuer: Certificate, at time: Int64) throws(RevocationCheckError)
            -> RevocationStatus
        {
            try statusOf(certificate, issuer, time)
        }
    }
#else
    /// The revocation checker a verifier holds: any `RevocationChecker` (in Embedded Swift, which
    /// has no existentials of this protocol, a wrapper of the same name).
    public typealias AnyRevocationChecker = any RevocationChecker
#endif
