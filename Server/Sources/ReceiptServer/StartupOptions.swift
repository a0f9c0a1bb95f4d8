import AppReceipt
import Foundation
import PKCS7
import ReceiptService
import ReceiptStore

/// Turning option values into what the layers below take.
enum StartupOptions {
    /// `BUNDLE_ID[=SHARED_SECRET]` → a registry entry holding the secret's SHA-256. The error
    /// names the bundle part only: a secret never reaches a message.
    static func app(_ text: String) throws(ConfigurationError) -> AppRegistration {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let bundle = String(parts[0])
        guard !bundle.isEmpty, !bundle.contains(where: \.isWhitespace) else { throw .invalidApp(bundle) }
        guard parts.count == 2 else { return AppRegistration(bundleID: bundle, sharedSecretSHA256: nil) }
        guard !parts[1].isEmpty else { throw .invalidApp(bundle) }
        return AppRegistration(bundleID: bundle, sharedSecretSHA256: AppRegistry.sharedSecretSHA256(String(parts[1])))
    }

    /// A `--root` file (DER, PEM or base64) → a trust anchor.
    static func root(_ path: String) throws(ConfigurationError) -> TrustAnchor {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableFile(path) }
        do {
            return try TrustAnchor(derEncoded: ReceiptInput.decode([UInt8](data)))
        } catch {
            throw .invalidRoot(path, "\(error)")
        }
    }
}
