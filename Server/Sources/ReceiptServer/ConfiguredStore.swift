import Foundation
import Logging
import ReceiptService
import ReceiptStore

/// Opening the configured database with the configured secrets key.
public enum ConfiguredStore {
    /// Loads the secrets key (`SecretsKeySource`) and opens the database with it. A key file
    /// generated now for a database sealed under another key is removed again, so the next start
    /// does not find a wrong key beside the database.
    public static func open(_ configuration: ServerConfiguration, logger: Logger) async throws -> (store: any ReceiptStore, secrets: SecretsKey) {
        let location = try DatabaseLocation(configuration.database)
        let loaded = try SecretsKeySource.load(configuration, logger: logger)
        do {
            return (try await Stores.open(location, secrets: loaded.key, logger: logger), loaded.key)
        } catch {
            if let generated = loaded.generatedFile { try? FileManager.default.removeItem(atPath: generated) }
            throw error
        }
    }

    /// Opens the store as `open` does, runs it while `body` uses it, then shuts it down and
    /// returns `body`'s result (one-shot commands).
    public static func with<T: Sendable>(_ configuration: ServerConfiguration, logger: Logger,
                                         _ body: @escaping @Sendable (any ReceiptStore, SecretsKey) async throws -> T) async throws -> T {
        let (store, secrets) = try await open(configuration, logger: logger)
        return try await Stores.run(store) { try await body($0, secrets) }
    }
}
