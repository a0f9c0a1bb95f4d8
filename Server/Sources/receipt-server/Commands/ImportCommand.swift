import AppStoreJWS
import AppStoreServerClient
import ArgumentParser
import CryptoPrimitives
import Foundation
import Logging
import ReceiptService
import ReceiptStore
import X509Certificates

/// `receipt-server import`: reads customers from the App Store Server API (Apple's, or another
/// receipt-server's with `--upstream`) and stores their signed transactions and renewal infos
/// as posted ones are stored. Prints a JSON summary; exits 1 when any id was not imported whole.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import customers from the App Store Server API (Get Transaction History, Get All Subscription Statuses).",
        discussion: """
            Each TRANSACTION_ID (or line of --from FILE) names one customer. Its history (every page) and its \
            subscription statuses are read with a token signed by the In-App Purchase key, every token is verified \
            under the server's trust anchors and stored exactly as POST /inApps/v1/transactions stores a posted one. \
            Progress is kept in the database: a re-run skips what is complete and resumes the rest. Prints \
            {"requested", "imported", "skipped", "failed", "transactions", "renewals", "failures"}; a progress line \
            on standard error when it is a terminal. A SQLite database belongs to one process: import while its server \
            is stopped (a running server's lock refuses it). With PostgreSQL, any time.
            """)

    @OptionGroup var storage: DatabaseOptions
    @Option(name: .customLong("app"), help: ArgumentHelp("The app's bundle id (the token's bid).", valueName: "bundle-id"))
    var bundleID: String
    @Option(help: ArgumentHelp("Production or Sandbox.", valueName: "Production|Sandbox")) var environment: String
    @Option(help: ArgumentHelp("The In-App Purchase key's .p8 file (PEM PKCS#8, as App Store Connect gives it).", valueName: "path"))
    var key: String
    @Option(name: .customLong("key-id"), help: "The key's id (the token's kid).") var keyID: String
    @Option(help: "The issuer id of the key's team (the token's iss).") var issuer: String
    @Option(help: ArgumentHelp("Base URL the /inApps/… paths are appended to (default: Apple's for --environment).", valueName: "base-url"))
    var upstream: String?
    @Option(name: .customLong("root-g3"), help: "Certificate replacing Apple Root CA - G3 (rules kept), repeatable.")
    var rootsG3: [String] = []
    @Option(help: ArgumentHelp("A file of transaction ids, one a line (blank lines and lines starting with # are skipped).", valueName: "file"))
    var from: String?
    @Option(help: "Customers imported at once.") var concurrency = 4
    @Option(name: .customLong("max-pages"), help: "History pages read per customer at most (20 transactions a page).")
    var maxPages = 500
    @Option(help: "Seconds one request may take, from connecting to the last byte.") var timeout = 30
    @Argument(help: ArgumentHelp("Transaction ids (digits), one per customer.", valueName: "transaction-id"))
    var transactionIDs: [String] = []

    func validate() throws {
        guard environment == "Production" || environment == "Sandbox" else {
            throw ValidationError("--environment must be Production or Sandbox, not \(environment)")
        }
        if transactionIDs.isEmpty && from == nil { throw ValidationError("give TRANSACTION_ID... or --from FILE") }
        if bundleID.isEmpty || keyID.isEmpty || issuer.isEmpty { throw ValidationError("--app, --key-id and --issuer must not be empty") }
        guard (1 ... 64).contains(concurrency) else { throw ValidationError("--concurrency must be 1 to 64") }
        guard (1 ... 100_000).contains(maxPages) else { throw ValidationError("--max-pages must be 1 to 100000") }
        guard (1 ... 600).contains(timeout) else { throw ValidationError("--timeout must be 1 to 600 seconds") }
        if let upstream, Self.baseURL(upstream) == nil {
            throw ValidationError("--upstream must be an http or https URL without query or fragment, not \(upstream)")
        }
    }

    func run() async throws {
        var configuration = try storage.configuration()
        if !rootsG3.isEmpty { configuration.rootsG3 = rootsG3 }
        let anchors = try configuration.rootsG3.isEmpty ? nil : configuration.rootsG3.map(StartupOptions.rootG3)
        let signer = AppStoreSigner(key: try Self.signingKey(key), keyID: keyID, issuerID: issuer, bundleID: bundleID)
        let ids = try transactionIDs + (from.map(Self.ids(inFile:)) ?? [])
        let base =
            upstream.flatMap(Self.baseURL)
            ?? (environment == "Production" ? AppStoreServerAPIClient.productionURL : AppStoreServerAPIClient.sandboxURL)
        let client = AppStoreServerAPIClient(
            baseURL: base, signer: signer, policy: AppStoreServerAPIClientPolicy(requestTimeout: .seconds(timeout)))
        let logger = try makeLogger("warning")
        let (bundleID, environment, limits) = (bundleID, environment, ImportLimits(maxPages: maxPages, concurrency: concurrency))
        let bar = ImportProgressBar()
        let summary: ImportSummary
        do {
            summary = try await ConfiguredStore.with(configuration, logger: logger, options: OpenOptions(createsFile: false, locksFile: true)) {
                store, _ in
                let service = ImportService(
                    store: store, source: ClientImportSource(client: client), bundleID: bundleID, environment: environment, anchors: anchors,
                    limits: limits, logger: logger)
                guard try await service.appIsServed() else {
                    throw ValidationError("app \(bundleID) is not served here: add it with receipt-server app add \(bundleID)")
                }
                return await service.run(ids, progress: bar.show)
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        print(summary.json)
        if summary.failed > 0 { throw ExitCode(1) }
    }

    /// The signing key of a `.p8` file; the message names the file, never the key.
    static func signingKey(_ path: String) throws -> P256SigningKey {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("cannot read the key file \(path)") }
        do {
            return try P256PrivateKeyFile.signingKey(pem: [UInt8](data))
        } catch {
            throw ValidationError("the key file \(path): \(error)")
        }
    }

    /// The transaction ids of a file: one a line, blank lines and `#` comments skipped.
    static func ids(inFile path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("cannot read \(path)") }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// `upstream` without trailing `/` when it is an http(s) URL with a host and without query,
    /// fragment or user.
    static func baseURL(_ upstream: String) -> String? {
        guard let url = URLComponents(string: upstream), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false, url.query == nil, url.fragment == nil, url.user == nil
        else { return nil }
        var text = upstream
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
