import Foundation
import ReceiptServer
@testable import receipt_server
import ReceiptService

/// The operator's secrets key every test uses unless it tests the key itself: one random key per
/// test run, as a 0600 file (in-process servers) and as `RECEIPT_SERVER_SECRETS_KEY` (processes).
enum TestSecrets {
    static let key = SecretsKey.generate()

    /// A key file holding `key`'s base64.
    static let keyFile: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-test-\(UUID().uuidString).secrets-key").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(key.base64.utf8), attributes: [.posixPermissions: 0o600])
        return path
    }()

    /// This process's environment with `RECEIPT_SERVER_SECRETS_KEY` set to `key`.
    static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[SecretsKeySource.environmentVariable] = key.base64
        return environment
    }

    /// This process's environment without `RECEIPT_SERVER_SECRETS_KEY`.
    static var environmentWithoutKey: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[SecretsKeySource.environmentVariable] = nil
        return environment
    }
}
