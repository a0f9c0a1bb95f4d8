import ArgumentParser
import Foundation
import ReceiptService
import ReceiptStore

/// `receipt-server apikey create|list|revoke`: the hosted API's keys, as data in the database.
struct APIKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apikey", abstract: "Create, list or revoke API keys of the hosted-validator API (/v1/receipt).",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: #"Print {"apikey": …, "id": …}: the key is shown once; only its SHA-256 is stored."#)
        @OptionGroup var storage: DatabaseOptions
        @Option(name: .customLong("app"), help: "A bundle id whose token the key may use, repeatable (default: every app).")
        var apps: [String] = []

        func run() async throws {
            try await storage.withAdmin { admin in
                let (key, record) = try await admin.createKey(apps: apps.isEmpty ? nil : apps)
                var object: [String: Any] = ["apikey": key, "id": record.id]
                if let apps = record.apps { object["apps"] = apps }
                try printJSON(object)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every key's id, dates and apps (never a key).")
        @OptionGroup var storage: DatabaseOptions

        func run() async throws {
            try await storage.withAdmin { admin in
                try printJSON(
                    try await admin.store.apiKeys().map { key -> [String: Any] in
                        var object: [String: Any] = ["id": key.id, "created": isoDate(key.createdMilliseconds)]
                        if let revoked = key.revokedMilliseconds { object["revoked"] = isoDate(revoked) }
                        if let apps = key.apps { object["apps"] = apps }
                        return object
                    })
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a key (given as the key or its id); every instance refuses it within 5 s.")
        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The key, or its id as apikey list shows it.") var key: String

        func run() async throws {
            try await storage.withAdmin { admin in
                let record = try await admin.revokeKey(key)
                try printJSON(["id": record.id, "revoked": isoDate(record.revokedMilliseconds ?? 0)])
            }
        }
    }
}

/// `receipt-server app add|list|remove`: the app registry that `--app` also writes.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app", abstract: "Add, list or remove apps of the registry (verifyReceipt's --app and the hosted API's tokens).",
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: #"Add or replace an app; print {"bundle_id": …, "token": …[, "encryption_key": …]}, shown once."#)
        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The app's bundle id.") var bundleID: String
        @Option(help: "The app's shared secret (verifyReceipt's password; stored as a salted SHA-256).") var sharedSecret: String?
        @Option(help: "The app's Apple id (App Store Connect), which production notifications must name.") var appleID: Int64?
        @Flag(help: "Make a new AES-256 key for the encrypted endpoint (/v1/receipt/encrypted), stored sealed under the secrets key.")
        var encryptionKey = false
        @Flag(
            help: """
                Answer iOS 6 transaction receipts that say they are from production with status 0 at /verifyReceipt. \
                Nothing Apple signed in them tells production from sandbox: a sandbox purchase with its environment line \
                deleted passes too. Off: such receipts get 21007 at production and are answered as sandbox ones at /sandbox.
                """)
        var acceptUnprovenLegacyProduction = false

        func validate() throws {
            if let appleID, appleID <= 0 { throw ValidationError("--apple-id must be a positive number") }
            if sharedSecret?.isEmpty == true { throw ValidationError("--shared-secret must not be empty") }
        }

        func run() async throws {
            try await storage.withAdmin { admin in
                let (token, key) = try await admin.addApp(
                    bundleID, sharedSecret: sharedSecret, appleID: appleID, encryptionKey: encryptionKey,
                    acceptsUnprovenLegacyProduction: acceptUnprovenLegacyProduction)
                var object: [String: Any] = ["bundle_id": bundleID, "token": token]
                if let key { object["encryption_key"] = Data(key).base64EncodedString() }
                try printJSON(object)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every app (never a secret, token or key).")
        @OptionGroup var storage: DatabaseOptions

        func run() async throws {
            try await storage.withAdmin { admin in
                try printJSON(
                    try await admin.store.appRecords().map { app -> [String: Any] in
                        var object: [String: Any] = [
                            "bundle_id": app.registration.bundleID,
                            "shared_secret": app.registration.sharedSecretHash != nil,
                            "token": app.credentials != nil,
                            "encryption_key": app.credentials?.sealedEncryptionKey != nil,
                        ]
                        if let appleID = app.registration.appleID { object["apple_id"] = Int(appleID) }
                        if app.registration.acceptsUnprovenLegacyProduction { object["accept_unproven_legacy_production"] = true }
                        if let tokenID = app.credentials?.tokenID { object["token_id"] = tokenID }
                        return object
                    })
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an app (its token stops working within 5 s).")
        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The app's bundle id.") var bundleID: String

        func run() async throws {
            try await storage.withAdmin { admin in
                try await admin.removeApp(bundleID)
                try printJSON(["bundle_id": bundleID, "removed": true])
            }
        }
    }
}

extension DatabaseOptions {
    /// Opens the database, runs `body` with the registry's administration, and closes it. A
    /// refusal (unknown app or key) ends the command with its message and status 1.
    func withAdmin(_ body: @escaping @Sendable (CredentialAdmin) async throws -> Void) async throws {
        let configuration = try configuration()
        do {
            try await ConfiguredStore.with(configuration, logger: try makeLogger("warning")) { store, secrets in
                try await body(CredentialAdmin(store: store, secrets: secrets))
            }
        } catch let refusal as CredentialAdmin.Refusal {
            FileHandle.standardError.write(Data("receipt-server: \(refusal)\n".utf8))
            throw ExitCode.failure
        }
    }
}

/// Prints a JSON value (keys sorted, slashes of base64 left as they are) on one line.
func printJSON(_ value: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: data, as: UTF8.self))
}

/// `2026-01-02T03:04:05Z` for milliseconds since 1970.
func isoDate(_ milliseconds: Int64) -> String {
    Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000).formatted(.iso8601)
}
