import ArgumentParser
import Foundation
import ReceiptService
import ReceiptStore

/// `receipt-server subscriptions TRANSACTION_ID`: prints what `GET /inApps/v1/subscriptions/{id}`
/// answers, evaluated at `--at` (read-only; it may run beside a running server). For operators,
/// support and tests.
struct SubscriptionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscriptions",
        abstract: "Print the App Store Server API's Get All Subscription Statuses answer for a transaction id.",
        discussion: """
            Prints the JSON body the endpoint answers (StatusResponse, or Apple's error body) and exits 0 for a \
            StatusResponse, 1 otherwise. Without --app, the app is the one registered app that has the transaction.
            """)

    @Argument(help: "Any transaction id of the customer (digits).") var transactionID: String
    @OptionGroup var storage: DatabaseOptions
    @Option(help: "Production or Sandbox (default Production).") var environment = "Production"
    @Option(help: "now, an RFC 3339 time (2026-11-25T18:00:00Z) or milliseconds since 1970 (default now).") var at = "now"
    @Option(name: .customLong("app"), help: "The app's bundle id (default: the registered app that has the transaction).")
    var bundleID: String?

    func run() async throws {
        guard environment == "Production" || environment == "Sandbox" else {
            throw ValidationError("--environment must be Production or Sandbox, not \(environment)")
        }
        guard let time = Self.milliseconds(at) else {
            throw ValidationError("--at must be now, an RFC 3339 time such as 2026-11-25T18:00:00Z, or milliseconds since 1970; not \(at)")
        }
        let configuration = try storage.configuration()
        let (transactionID, environment, bundleID) = (self.transactionID, self.environment, self.bundleID)
        // One logger: the logging system may be bootstrapped only once per process.
        let logger = try makeLogger("warning")
        let answer = try await ConfiguredStore.with(configuration, logger: logger) { store, _ in
            let apps = try await store.apps()
            let service = AppStoreAPIService(store: store, registry: AppRegistry(apps), anchors: nil, allowXcode: false, logger: logger)
            var found: [ServiceAnswer] = []
            var last: ServiceAnswer?
            for app in bundleID.map({ [$0] }) ?? apps.map(\.bundleID) {
                let answer = await service.statuses(transactionID: transactionID, bundleID: app, environment: environment, at: time)
                if answer.httpStatus != 404 { found.append(answer) }
                last = answer
            }
            guard found.count <= 1 else {
                throw ValidationError("transaction \(transactionID) is stored for several apps; choose one with --app")
            }
            return found.first ?? last ?? AppStoreAPIError.transactionNotFound.answer()
        }
        print(answer.body)
        if answer.httpStatus != 200 { throw ExitCode(1) }
    }

    /// `now`, digits (milliseconds), or RFC 3339 with or without fractional seconds.
    static func milliseconds(_ text: String) -> Int64? {
        if text == "now" { return EpochMilliseconds.now() }
        if DecimalText.isDigits(text, lengths: 1 ... 19) { return Int64(text) }
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return EpochMilliseconds.of(date) }
        }
        return nil
    }
}
