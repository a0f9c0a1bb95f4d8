import X509Certificates

extension StartupOptions {
    /// A `--root-g3` file (DER, PEM or base64) → a trust anchor for notifications.
    static func rootG3(_ path: String) throws(ConfigurationError) -> TrustAnchor {
        do {
            return try root(path)
        } catch .invalidRoot(_, let reason) {
            throw .invalidValue("root-g3", "\(path): not a certificate (\(reason))")
        }
    }
}
