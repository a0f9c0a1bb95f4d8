import ArgumentParser
import Foundation
import ReceiptService
import ReceiptStore

/// `receipt-server report BUNDLE --from … --to …`: the subscription metrics of `GET
/// /inApps/v1/metrics` (the same service and SQL), as a table or, with `--json`, as the
/// endpoint's body. Read-only; it may run beside a running server.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Print an app's subscription metrics by UTC day (what GET /inApps/v1/metrics answers).")

    @Argument(help: "The app's bundle id.") var bundleID: String
    @OptionGroup var storage: DatabaseOptions
    @Option(help: "Production or Sandbox (default Production).") var environment = "Production"
    @Option(help: "The first UTC day, YYYY-MM-DD.") var from: String
    @Option(help: "The last UTC day, YYYY-MM-DD (at most 366 days in all).") var to: String
    @Flag(help: "Print the endpoint's JSON body instead of a table.") var json = false

    func run() async throws {
        guard environment == "Production" || environment == "Sandbox" else {
            throw ValidationError("--environment must be Production or Sandbox, not \(environment)")
        }
        let window: MetricsWindowRequest
        do throws(MetricsWindowRequest.Refusal) {
            window = try MetricsWindowRequest(from: from, to: to)
        } catch {
            throw ValidationError(error.description)
        }
        let (bundleID, environment) = (self.bundleID, self.environment)
        let logger = try makeLogger("warning")
        let days = try await ConfiguredStore.with(try storage.configuration(), logger: logger) { store, _ in
            try await SubscriptionMetricsService(store: store, logger: logger).days(window, bundleID: bundleID, environment: environment)
        }
        print(json ? SubscriptionMetricsJSON.body(bundleID: bundleID, environment: environment, days: days) : SubscriptionMetricsTable.text(days))
    }
}
