import Foundation
import Logging
import ReceiptService
import ReceiptStore

/// Where the operator's secrets key (`SecretsKey`) comes from, first match wins:
/// 1. `--secrets-key-file PATH` (config key `secrets-key-file`): 32 random bytes, raw or base64;
/// 2. the environment variable `RECEIPT_SERVER_SECRETS_KEY`: their base64;
/// 3. for `sqlite:PATH` only, a key file beside the database (`PATH` without its extension, plus
///    `.secrets-key`), generated 0600 on first use with a warning that this is a development
///    setup (the key then sits beside the data it protects);
/// 4. for PostgreSQL, nothing: every instance must be given the same key, so a generated one is
///    refused (`ConfigurationError.missingSecretsKey`).
public enum SecretsKeySource {
    /// The environment variable holding the key's base64.
    public static let environmentVariable = "RECEIPT_SERVER_SECRETS_KEY"

    /// A key and where it came from.
    public struct Loaded: Sendable {
        /// The operator's key.
        public let key: SecretsKey
        /// The key file generated just now (nil when the key was given or found).
        public let generatedFile: String?
    }

    /// The key for `configuration`'s database; generates the SQLite default when it is missing.
    public static func load(
        _ configuration: ServerConfiguration, environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger
    ) throws -> Loaded {
        if let path = configuration.secretsKeyFile { return Loaded(key: try SecretsKeyFile.read(path), generatedFile: nil) }
        if let text = environment[environmentVariable] {
            do {
                return Loaded(key: try SecretsKey(base64: text), generatedFile: nil)
            } catch {
                throw ConfigurationError.invalidSecretsKey(source: environmentVariable, reason: error.description)
            }
        }
        let location = try DatabaseLocation(configuration.database)
        guard case .sqlite(let database) = location else { throw ConfigurationError.missingSecretsKey(database: location.description) }
        let path = defaultFile(forDatabase: database)
        if FileManager.default.fileExists(atPath: path) {
            logger.info("secrets key from the file beside the database (a development setup)", metadata: ["path": "\(path)"])
            return Loaded(key: try SecretsKeyFile.read(path), generatedFile: nil)
        }
        let key = SecretsKey.generate()
        guard try SecretsKeyFile.create(path, key: key) else { return Loaded(key: try SecretsKeyFile.read(path), generatedFile: nil) }
        logger.warning(
            """
            generated a new secrets key beside the database: a development setup. Whoever copies both files can read the apps' \
            encryption keys; in production give --secrets-key-file or RECEIPT_SERVER_SECRETS_KEY and keep the key out of the \
            database's backups (but back it up: without it the apps' keys are lost)
            """, metadata: ["path": "\(path)"])
        return Loaded(key: key, generatedFile: path)
    }

    /// `DIR/NAME.secrets-key` for a database at `DIR/NAME.EXT` (or `DIR/NAME`).
    static func defaultFile(forDatabase path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        var base = Substring(path)
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { base = path[..<dot] }
        return String(base) + ".secrets-key"
    }
}
