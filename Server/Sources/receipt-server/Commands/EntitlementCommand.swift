import ArgumentParser
import Foundation
import ReceiptService
import ReceiptStore

/// `receipt-server entitlement set|list|remove`: an app's entitlements (DESIGN §18), as data in
/// the database, which `GET /inApps/v1/entitlements/{appAccountToken}` reads on each request.
struct EntitlementCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entitlement", abstract: "Set, list or remove an app's entitlements (names for sets of products).",
        subcommands: [Set.self, List.self, Remove.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give NAME exactly these products (replacing the ones it had).")
        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The app's bundle id.") var bundleID: String
        @Argument(help: "The entitlement's name (premium).") var name: String
        @Argument(help: "The product ids that grant it.") var productIDs: [String]

        func validate() throws {
            try EntitlementCommand.check(bundleID: bundleID, name: name)
            guard !productIDs.isEmpty else { throw ValidationError("give at least one product id") }
            if let bad = productIDs.first(where: { !EntitlementCommand.isName($0) }) {
                throw ValidationError("'\(bad)' is not a product id (1 to 255 printable characters, no spaces)")
            }
        }

        func run() async throws {
            let definition = EntitlementDefinition(name: name, productIDs: Array(Swift.Set(productIDs)).sorted())
            try await storage.withStore { store in
                try await store.setEntitlement(bundleID: bundleID, definition)
                try printJSON(["bundle_id": bundleID, "name": definition.name, "products": definition.productIDs])
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: #"Print the app's entitlements as JSON: [{"name": …, "products": […]}]."#)
        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The app's bundle id.") var bundleID: String

        func run() async throws {
            try await storage.withStore { store in
                try printJSON(try await store.entitlements(bundleID: bundleID).map { ["name": $0.name, "products": $0.productIDs] })
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an entitlement (exit 1 when the app has none of that name).")
        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The app's bundle id.") var bundleID: String
        @Argument(help: "The entitlement's name.") var name: String

        func run() async throws {
            let removed = try await storage.withStore { store in try await store.removeEntitlement(bundleID: bundleID, name: name) }
            guard removed else {
                FileHandle.standardError.write(Data("receipt-server: \(bundleID) has no entitlement '\(name)'\n".utf8))
                throw ExitCode.failure
            }
            try printJSON(["bundle_id": bundleID, "name": name, "removed": true])
        }
    }

    static func check(bundleID: String, name: String) throws {
        guard AppRegistry.isValidBundleID(bundleID) else { throw ValidationError("invalid bundle id '\(bundleID)'") }
        guard isName(name) else { throw ValidationError("'\(name)' is not an entitlement name (1 to 255 printable characters, no spaces)") }
    }

    /// 1 to 255 printable ASCII characters without spaces.
    static func isName(_ text: String) -> Bool {
        (1 ... 255).contains(text.utf8.count) && text.utf8.allSatisfy { (0x21 ... 0x7E).contains($0) }
    }
}

extension DatabaseOptions {
    /// Opens the database (an existing one), runs `body` with it, and closes it.
    func withStore<T: Sendable>(_ body: @escaping @Sendable (any ReceiptStorage) async throws -> T) async throws -> T {
        try await ConfiguredStore.with(try configuration(), logger: try makeLogger("warning")) { store, _ in try await body(store) }
    }
}
