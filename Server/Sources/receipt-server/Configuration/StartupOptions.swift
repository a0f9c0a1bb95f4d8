import AppReceipt
import Foundation
import X509Certificates
import ReceiptService
import ReceiptStore

/// Turning option values into what the layers below take.
enum StartupOptions {
    /// `BUNDLE_ID[=SHARED_SECRET][@APPLE_ID]` → a registry entry holding the secret's salted hash
    /// (`SharedSecretHash`, a new salt each time) and the app's Apple id. The Apple id follows the last `@` and is all digits, so a secret may
    /// hold `@` itself. The error names the bundle part only: a secret never reaches a message.
    static func app(_ text: String) throws(ConfigurationError) -> AppRegistration {
        var rest = Substring(text)
        var appleID: Int64? = nil
        if let at = rest.lastIndex(of: "@") {
            let digits = rest[rest.index(after: at)...]
            if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int64(digits), id > 0 {
                appleID = id
                rest = rest[..<at]
            }
        }
        let parts = rest.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let bundle = String(parts[0])
        guard AppRegistry.isValidBundleID(bundle) else { throw .invalidApp(bundle) }
        guard parts.count == 2 else { return AppRegistration(bundleID: bundle, sharedSecretHash: nil, appleID: appleID) }
        guard !parts[1].isEmpty else { throw .invalidApp(bundle) }
        return AppRegistration(bundleID: bundle, sharedSecretHash: SharedSecretHash.make(String(parts[1])), appleID: appleID)
    }

    /// A `--root` file (DER, PEM or base64) → a trust anchor.
    static func root(_ path: String) throws(ConfigurationError) -> TrustAnchor {
        try certificateFile(path, { try TrustAnchor(derEncoded: $0) }, invalid: ConfigurationError.invalidRoot)
    }

    /// A `--legacy-intermediate` file (DER, PEM or base64) → a certificate.
    static func legacyIntermediate(_ path: String) throws(ConfigurationError) -> Certificate {
        try certificateFile(path, { try Certificate(derEncoded: $0) }, invalid: ConfigurationError.invalidLegacyIntermediate)
    }

    /// The file's certificate as `make` reads it; `invalid` names the option when it is not one.
    private static func certificateFile<T>(
        _ path: String, _ make: ([UInt8]) throws -> T,
        invalid: (String, String) -> ConfigurationError
    ) throws(ConfigurationError) -> T {
        let data = try FileContents.read(path)
        do {
            return try make(ReceiptInput.decode([UInt8](data)))
        } catch {
            throw invalid(path, "\(error)")
        }
    }
}
