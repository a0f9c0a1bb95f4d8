/// A configuration that cannot be used; the message names the option or key (and the file).
public indirect enum ConfigurationError: Error, Sendable, CustomStringConvertible, Equatable {
    /// A file (configuration, certificate, secrets key) that cannot be read, and why (`no such
    /// file`, `permission denied`, `is a directory`); nil: found out when the message is made.
    case unreadableFile(String, reason: String? = nil)
    /// A configuration file that is not a JSON object.
    case invalidFile(String, String)
    /// A configuration file's key that is no option (and the key meant, when one is close).
    case unknownKey(file: String, key: String, suggestion: String?)
    /// A configuration file's value of the wrong JSON type.
    case invalidType(file: String, key: String, expected: String, found: String)
    /// An option's value out of its range or choices.
    case invalidValue(String, String)
    /// An error in a value read from the configuration file at `path`.
    case inFile(path: String, ConfigurationError)
    /// A `--root` file that is not a certificate.
    case invalidRoot(String, String)
    /// A `--legacy-intermediate` file that is not a certificate.
    case invalidLegacyIntermediate(String, String)
    /// An `--app` value that is not `BUNDLE_ID[=SHARED_SECRET][@APPLE_ID]`.
    case invalidApp(String)
    /// The secrets key from `source` (a file's path, or the environment variable's name) is not
    /// a key; `reason` never holds key material.
    case invalidSecretsKey(source: String, reason: String)
    /// A secrets key file that group or others may read or write.
    case exposedSecretsKey(path: String, mode: UInt16)
    /// No secrets key was given for a database that has no place for a generated one (PostgreSQL).
    case missingSecretsKey(database: String)
    /// The server cannot listen at `address` (`host:port`); `option` is the flag that sets the port.
    case cannotListen(address: String, option: String, reason: String)

    /// What an option with a fixed set of values accepts (for its error message).
    static let choices: [String: String] = [
        "inspector": "on or off",
        "retention-message": "BUNDLE_ID=MESSAGE_UUID[:PRODUCT_ID], one per app",
        "log-level": ServerConfiguration.logLevels.dropLast().joined(separator: ", ") + " or " + ServerConfiguration.logLevels.last!,
    ]

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): return "cannot read \(path): \(reason ?? FileContents.failure(path))"
        case .invalidFile(let path, let reason): return "\(path): \(reason)"
        case .unknownKey(let file, let key, let suggestion):
            return "\(file): unknown configuration key '\(key)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
        case .invalidType(let file, let key, let expected, let found): return "\(file): '\(key)' must be \(expected), not \(found)"
        case .invalidValue(let key, let value):
            return "invalid \(key) '\(value)'" + (Self.choices[key].map { ": expected \($0)" } ?? "")
        case .inFile(let path, let error): return "\(path): \(error)"
        case .invalidRoot(let path, let reason): return "--root \(path): not a certificate (\(reason))"
        case .invalidLegacyIntermediate(let path, let reason): return "--legacy-intermediate \(path): not a certificate (\(reason))"
        case .invalidApp(let bundle): return "--app expects BUNDLE_ID[=SHARED_SECRET][@APPLE_ID], got '\(bundle)'"
        case .invalidSecretsKey(let source, let reason): return "secrets key from \(source): \(reason)"
        case .exposedSecretsKey(let path, let mode):
            return
                "secrets key file \(path) has mode 0\(String(mode, radix: 8)): group or others may read it; run `chmod 600 \(path)` and start again"
        case .missingSecretsKey(let database):
            return "\(database) needs the operator's secrets key: give --secrets-key-file PATH (32 random bytes, raw or base64) or set "
                + "RECEIPT_SERVER_SECRETS_KEY (base64), the same key on every instance; make one with `head -c 32 /dev/urandom | base64`"
        case .cannotListen(let address, _, let reason): return "cannot listen on \(address): \(reason)"
        }
    }
}
