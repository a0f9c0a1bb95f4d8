import Foundation
import ReceiptService
import Testing

@testable import receipt_server

/// `--webhook-timeout` and `--webhook-retry-schedule`, as flags and configuration-file keys: the
/// defaults, and a value that does not parse stopping start-up with the option's name.
@Suite struct WebhookOptionsTests {
    @Test func defaultsAndFileKeys() throws {
        let defaults = try StartupOptions.webhooks(ServerConfiguration())
        #expect(defaults.0 == .seconds(10) && defaults.1 == .standard)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-webhooks-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(#"{"webhook-timeout": "1500ms", "webhook-retry-schedule": "1s,2s,4s"}"#.utf8).write(to: URL(fileURLWithPath: path))
        let read = try StartupOptions.webhooks(try ServerConfiguration(configFile: path))
        #expect(read.0 == .milliseconds(1500) && read.1.delays == [1000, 2000, 4000])
    }

    @Test func badValuesStopStartUp() async throws {
        for (value, option) in [("0s", "webhook-timeout"), ("301s", "webhook-timeout"), ("10x", "webhook-timeout")] {
            var configuration = ServerConfiguration()
            configuration.webhookTimeout = value
            #expect(throws: ConfigurationError.invalidValue(option, value)) { try StartupOptions.webhooks(configuration) }
        }
        var configuration = ServerConfiguration()
        configuration.webhookRetrySchedule = "1s,soon"
        #expect(throws: ConfigurationError.invalidValue("webhook-retry-schedule", "1s,soon")) { try StartupOptions.webhooks(configuration) }
        let database = try await TestDatabase.make(.sqlite)
        let run = try await LiveServer.runForErrors(["serve", "--database", database.url, "--port", "0", "--webhook-retry-schedule", "1s,,2s"])
        #expect(run.status != 0 && run.errors.contains("webhook-retry-schedule"), "\(run.errors)")
    }
}
