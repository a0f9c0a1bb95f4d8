import Foundation
import LegacyReceipt
import ReceiptServer
@testable import receipt_server
import ReceiptService
import ReceiptStore
import ReceiptTestSupport

/// iOS 6 style transaction receipts signed in Swift by test chains of Apple's shape (version 2
/// and 3), for the app `Synthetic.bundleID`; the server trusts the chains' root through `--root`
/// and their intermediates through `--legacy-intermediate`.
enum SyntheticLegacy {
    static let version2 = TestLegacyChain(version: 2)
    static let version3 = TestLegacyChain(version: 3)

    /// The chains' root (the same certificate for both versions), written once for `--root`.
    static let rootPath = write(version2.rootCertificate, "legacy-root")
    /// Both intermediates, written once for `--legacy-intermediate`.
    static let intermediatePaths = [
        write(version2.intermediateCertificate, "legacy-v2-ca"),
        write(version3.intermediateCertificate, "legacy-v3-ca"),
    ]

    /// The original transaction id of the subscription the receipts renew.
    static let original = "1000000046178817"
    /// A date far ahead: renewals that have not expired.
    static let future: Int64 = 4_102_444_800_000

    /// A receipt of `transaction` (an auto-renewable renewal of `original` when `expires` is
    /// given, a consumable otherwise), purchased at `purchased` (milliseconds), in the sandbox or
    /// in production (no `environment` key, as Apple wrote production receipts).
    static func receipt(
        _ transaction: String, original: String = original, purchased: Int64, expires: Int64?,
        sandbox: Bool = false, version: UInt8 = 2
    ) -> TestTransactionReceipt {
        var receipt = TestTransactionReceipt(
            version: version, chain: version == 2 ? version2 : version3,
            purchaseMilliseconds: purchased, expiresMilliseconds: expires,
            transactionIdentifier: transaction)
        receipt.purchaseInfo = receipt.purchaseInfo.map { key, value in
            switch key {
            case "bid": return (key, Synthetic.bundleID)
            case "original-transaction-id": return (key, original)
            default: return (key, value)
            }
        }
        receipt.outer = sandbox ? [("environment", "Sandbox"), ("pod", "100"), ("signing-status", "0")] : [("pod", "100"), ("signing-status", "0")]
        return receipt
    }

    /// The request body for a receipt's text (base64, as clients sent `transactionReceipt`).
    static func body(_ text: [UInt8], password: String? = nil) -> Data {
        Synthetic.body(text, password: password)
    }

    /// What the server stores and answers as `latest_receipt` for a receipt's text admitted at the
    /// sandbox or the production endpoint: its signed form (`TransactionReceipt.signedForm`).
    static func signedForm(_ text: [UInt8], sandbox: Bool = false) throws -> [UInt8] {
        try TransactionReceipt(text).signedForm(sandbox: sandbox)
    }

    /// Registers the synthetic app in `database` as `receipt-server app add
    /// --accept-unproven-legacy-production` does: its transaction receipts that say they are
    /// from production are answered as such at the production endpoint.
    static func trustProductionClaims(_ database: TestDatabase, bundleID: String = Synthetic.bundleID) async throws {
        try await Stores.with(DatabaseLocation(database.url), secrets: TestSecrets.key, logger: TestServer.logger) { store in
            _ = try await CredentialAdmin(store: store, secrets: TestSecrets.key).addApp(
                bundleID, sharedSecret: nil, appleID: nil, encryptionKey: false, acceptsUnprovenLegacyProduction: true)
        }
    }

    private static func write(_ der: [UInt8], _ name: String) -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-tests-\(name)-\(getpid()).der")
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(der))
        return url.path
    }
}

extension TestServer {
    /// A configuration trusting the app receipts' test chain and the transaction receipts' ones.
    static func legacyConfiguration(_ database: TestDatabase, apps: [String] = []) -> ServerConfiguration {
        var configuration = configuration(database, apps: apps, roots: [Synthetic.rootPath, SyntheticLegacy.rootPath])
        configuration.legacyIntermediates = SyntheticLegacy.intermediatePaths
        return configuration
    }
}
