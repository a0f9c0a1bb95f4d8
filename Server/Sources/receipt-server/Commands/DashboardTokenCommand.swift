import ArgumentParser
import Foundation
import ReceiptService
import ReceiptStore

/// `receipt-server dashboard-token create|list|revoke`: the operator's credentials for
/// `/dashboard`, stored as SHA-256 hashes.
struct DashboardTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard-token", abstract: "Create, list or revoke tokens that open the subscriptions dashboard (/dashboard).",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: #"Print {"token": …, "id": …}: the token is shown once; only its SHA-256 is stored."#)
        @OptionGroup var storage: DatabaseOptions

        func run() async throws {
            try await storage.withStore { store in
                let (token, record) = try await DashboardAccess(store: store).create()
                try printJSON(["token": token, "id": record.id])
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every token's id and dates (never a token).")
        @OptionGroup var storage: DatabaseOptions

        func run() async throws {
            try await storage.withStore { store in
                try printJSON(
                    try await store.dashboardTokens().map { token -> [String: Any] in
                        var object: [String: Any] = ["id": token.id, "created": isoDate(token.createdMilliseconds)]
                        if let revoked = token.revokedMilliseconds { object["revoked"] = isoDate(revoked) }
                        return object
                    })
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token (given as the token or its id); the dashboard refuses it at once.")
        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The token, or its id as dashboard-token list shows it.") var token: String

        func run() async throws {
            let revoked = try await storage.withStore { store in try await DashboardAccess(store: store).revoke(token) }
            guard revoked else {
                FileHandle.standardError.write(Data("receipt-server: no dashboard token \(token)\n".utf8))
                throw ExitCode.failure
            }
            try printJSON(["revoked": true])
        }
    }
}
