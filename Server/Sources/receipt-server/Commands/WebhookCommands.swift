import ArgumentParser
import Foundation
import ReceiptService
import ReceiptStore

/// `receipt-server webhook add|list|remove|deliveries|redeliver`: outgoing webhooks (issue 38),
/// endpoints as data in the database; a running server delivers.
struct WebhookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook", abstract: "Add, list or remove webhook endpoints; list deliveries; redeliver an event.",
        subcommands: [Add.self, List.self, Remove.self, Deliveries.self, Redeliver.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: #"Add an endpoint; print {"id": …, "secret": "whsec_…"}: the signing secret is shown once, stored sealed."#)
        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The endpoint's URL: http or https, no user name or password.") var url: String
        @Option(name: .customLong("app"), help: "The registered app (bundle id) whose events it receives.") var bundleID: String
        @Option(help: "Production or Sandbox (default: both).") var environment: String?
        @Option(help: "Event types, comma-separated: Apple's notificationType values, POSTED_TRANSACTION (default: every type).")
        var events: String?

        func run() async throws {
            try await storage.withWebhookAdmin { admin in
                let types = events.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
                let (endpoint, secret) = try await admin.add(url: url, bundleID: bundleID, environment: environment, events: types)
                try printJSON(["id": endpoint.id, "secret": secret.text])
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every endpoint's id, URL, app, environment and events (never a secret).")
        @OptionGroup var storage: DatabaseOptions

        func run() async throws {
            try await storage.withWebhookAdmin { admin in try printJSON(try await admin.list().map(WebhookAdmin.json)) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an endpoint and its pending deliveries.")
        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The endpoint's id, as webhook list shows it.") var id: String

        func run() async throws {
            try await storage.withWebhookAdmin { admin in
                try await admin.remove(id)
                try printJSON(["id": id, "removed": true])
            }
        }
    }

    struct Deliveries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print deliveries, newest first, as JSON.")
        @OptionGroup var storage: DatabaseOptions
        @Flag(help: "Only deliveries failed after their last attempt.") var failed = false
        @Option(help: "At most this many (default 1000).") var limit = 1000

        func validate() throws {
            guard limit > 0 else { throw ValidationError("--limit must be positive") }
        }

        func run() async throws {
            try await storage.withWebhookAdmin { admin in
                try printJSON(try await admin.deliveries(failedOnly: failed, limit: limit).map(WebhookAdmin.json))
            }
        }
    }

    struct Redeliver: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Deliver an event again to its endpoints, from the first attempt of the schedule; it keeps its webhook-id.")
        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The event's id (webhook deliveries' eventId).") var eventID: String

        func run() async throws {
            try await storage.withWebhookAdmin { admin in
                try printJSON(["eventId": eventID, "deliveries": try await admin.redeliver(eventID)])
            }
        }
    }
}

extension DatabaseOptions {
    /// Opens the database, runs `body` with the webhooks' administration, and closes it. A
    /// refusal (bad URL, unregistered app, unknown endpoint or event) ends the command with its
    /// one-line message and status 1.
    func withWebhookAdmin(_ body: @escaping @Sendable (WebhookAdmin) async throws -> Void) async throws {
        let configuration = try configuration()
        do {
            try await ConfiguredStore.with(configuration, logger: try makeLogger("warning")) { store, secrets in
                try await body(WebhookAdmin(store: store, secrets: secrets))
            }
        } catch let refusal as WebhookAdmin.Refusal {
            FileHandle.standardError.write(Data("receipt-server: \(refusal)\n".utf8))
            throw ExitCode.failure
        }
    }
}
