import ArgumentParser
import Foundation
import ReceiptService
import ReceiptStore

/// `receipt-server iapkey add|list|revoke`: the App Store Connect In-App Purchase keys whose
/// JWTs the App Store Server API endpoints accept, as data in the database.
struct IAPKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapkey", abstract: "Add, list or revoke In-App Purchase keys of the App Store Server API (/inApps/…).",
        subcommands: [Add.self, List.self, Revoke.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                #"Add or replace a key; print {"keyId", "issuerId", "apps", "publicKeySha256", "created"}. Only the public key is stored."#
        )
        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The key's Key ID in App Store Connect (the JWT header's kid).") var keyID: String
        @Option(name: .customLong("issuer"), help: "The Issuer ID in App Store Connect (the JWT's iss).") var issuerID: String
        @Option(
            name: .customLong("key"),
            help: "The .p8 file App Store Connect gives (PEM PRIVATE KEY, EC P-256; only its public key is kept) or a PEM PUBLIC KEY.")
        var keyFile: String
        @Option(name: .customLong("app"), help: "A bundle id the key's tokens may name as bid, repeatable (default: every app).")
        var apps: [String] = []

        func run() async throws {
            try await storage.withIAPKeyAdmin { admin in
                try printJSON(IAPKeyAdmin.json(try await admin.add(keyID: keyID, issuerID: issuerID, keyFile: keyFile, apps: apps)))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every key's id, issuer, apps, public key fingerprint and dates.")
        @OptionGroup var storage: DatabaseOptions

        func run() async throws {
            try await storage.withIAPKeyAdmin { admin in
                try printJSON(try await admin.list().map(IAPKeyAdmin.json))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a key; a running server refuses its tokens within about a second.")
        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The key's id, as iapkey list shows it.") var keyID: String

        func run() async throws {
            try await storage.withIAPKeyAdmin { admin in
                try printJSON(IAPKeyAdmin.json(try await admin.revoke(keyID)))
            }
        }
    }
}

extension DatabaseOptions {
    /// Opens the database, runs `body` with the In-App Purchase keys' administration, and closes
    /// it. A refusal (bad key file, unknown key) ends the command with its message and status 1.
    func withIAPKeyAdmin(_ body: @escaping @Sendable (IAPKeyAdmin) async throws -> Void) async throws {
        let configuration = try configuration()
        do {
            try await ConfiguredStore.with(configuration, logger: try makeLogger("warning")) { store, _ in
                try await body(IAPKeyAdmin(store: store))
            }
        } catch let refusal as IAPKeyAdmin.Refusal {
            FileHandle.standardError.write(Data("receipt-server: \(refusal)\n".utf8))
            throw ExitCode.failure
        }
    }
}
