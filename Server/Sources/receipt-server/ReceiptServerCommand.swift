import ArgumentParser
import Foundation
import Logging
import ReceiptServer

/// `receipt-server [serve] [options]` and the other commands (`Commands/`): `stats`, `ingest`,
/// the registry's `app …`, `apikey …` and `iapkey …`, `subscriptions` and `import`; `entitlement …`,
/// `report` and `dashboard-token …` (DESIGN §18).
@main
struct ReceiptServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt-server",
        abstract: "An offline, self-hosted verifyReceipt: receipts verified in Swift, remembered in SQLite or PostgreSQL.",
        subcommands: [
            Serve.self, Stats.self, Ingest.self, APIKeyCommand.self, AppCommand.self, IAPKeyCommand.self, SubscriptionsCommand.self,
            ImportCommand.self,
            WebhookCommand.self,
            EntitlementCommand.self, ReportCommand.self, DashboardTokenCommand.self,
        ],
        defaultSubcommand: Serve.self)
}

/// A logger writing JSON lines at `level` (one of `ServerConfiguration.logLevels`).
func makeLogger(_ level: String) throws -> Logger {
    guard let level = Logger.Level(rawValue: try ServerConfiguration.checkedLogLevel(level)) else {
        throw ConfigurationError.invalidValue("log-level", level)
    }
    LoggingSystem.bootstrap { label in JSONLogHandler(label: label, level: level) }
    return Logger(label: "receipt-server")
}
