import Foundation
import Logging
import ReceiptService
import ReceiptStore

/// Opening the configured database with the configured secrets key.
public enum ConfiguredStore {
    /// Loads the secrets key (`SecretsKeySource`) and opens the database with it, as `options`
    /// say: the server (`.server`, the default) creates a missing SQLite file and holds its lock;
    /// a command (`.command`) refuses a missing file before anything is written beside it (no
    /// key file is generated for a database that is not there). A key file generated now for a
    /// database sealed under another key is removed again, so the next start does not find a
    /// wrong key beside the database.
    public static func open(
        _ configuration: ServerConfiguration, logger: Logger,
        options: OpenOptions = .server
    ) async throws -> (store: any ReceiptStorage, secrets: SecretsKey) {
        let location = try DatabaseLocation(configuration.database)
        if case .sqlite(let path) = location, !options.createsFile, !FileManager.default.fileExists(atPath: path) {
            throw StoreError.missingDatabase(path: URL(fileURLWithPath: path).standardizedFileURL.path)
        }
        let loaded = try SecretsKeySource.load(configuration, logger: logger)
        do {
            return (try await Stores.open(location, secrets: loaded.key, logger: logger, options: options), loaded.key)
        } catch {
            if let generated = loaded.generatedFile { try? FileManager.default.removeItem(atPath: generated) }
            throw error
        }
    }

    /// Opens the store as `open` does (by default as a command: an existing database only), runs
    /// it while `body` uses it, then shuts it down and returns `body`'s result (one-shot commands).
    public static func with<T: Sendable>(
        _ configuration: ServerConfiguration, logger: Logger, options: OpenOptions = .command,
        _ body: @escaping @Sendable (any ReceiptStorage, SecretsKey) async throws -> T
    ) async throws -> T {
        let (store, secrets) = try await open(configuration, logger: logger, options: options)
        return try await Stores.run(store) { try await body($0, secrets) }
    }
}
