import Foundation

/// Everything `receipt-server` is started with (DESIGN §12). The JSON config file (`--config`)
/// uses the flags' names as keys; flags given on the command line win.
public struct ServerConfiguration: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// `sqlite:PATH` or `postgres://USER[:PASS]@HOST:PORT/DB`.
    public var database = "sqlite:./receipt-server.sqlite"
    /// `BUNDLE_ID[=SHARED_SECRET][@APPLE_ID]` values; when any is given, only these apps are served.
    public var apps: [String] = []
    /// Certificate files replacing Apple Root CA as the receipts' anchor (App Store rules kept).
    public var roots: [String] = []
    /// Certificate files replacing Apple Root CA - G3 as the notifications' anchor (App Store
    /// signed-data rules kept).
    public var rootsG3: [String] = []
    /// Certificate files replacing the embedded Apple iTunes Store CA and 2013 WWDR CA that
    /// transaction receipts (iOS 6 style) chain through; with `roots`, for test chains.
    public var legacyIntermediates: [String] = []
    /// Xcode StoreKit-testing receipts at the sandbox endpoint (development only).
    public var allowXcode = false
    /// Largest request body, in bytes.
    public var maxBody = 1 << 20
    /// Verification cache entries; 0 turns the cache off.
    public var cache = 10_000
    /// Bytes the verification cache may hold (receipts and what was decoded from them).
    public var cacheBytes = 64 << 20
    /// Verifications in flight at once (body read to answer, storage included), shared by every
    /// route that verifies; past it requests are shed ("busy, retry") instead of queued.
    public var maxVerifications = 64
    /// Seconds a client has to send one whole request (headers and body), from its first byte.
    public var requestTimeout = 10
    /// Open connections at most; past it new connections wait in the kernel's accept queue.
    public var maxConnections = 1024
    /// Address of the `/metrics` listener.
    public var metricsHost = "127.0.0.1"
    /// Port of the `/metrics` listener; nil: no listener (metrics off); 0: any free port.
    public var metricsPort: Int?
    /// `trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical`.
    public var logLevel = "info"
    /// Seconds a connection may stay silent (mid-request or between requests) before it is closed.
    public var idleTimeout = 30
    /// `GET /` (the inspector page) and `POST /inspect`: `on`, `off`, or nil (on only when `host`
    /// is a loopback address; see `inspectorEnabled`).
    public var inspector: Bool?
    /// `/inspect`: requests a second per client address (token-bucket refill); 0 turns it off.
    public var inspectRate = 2.0
    /// `/inspect`: requests a client address may send at once.
    public var inspectBurst = 20
    /// Hosted API: requests a second per API key (token bucket refill); 0 turns the limit off.
    public var keyRate = 100.0
    /// Hosted API: requests an API key may send at once (the bucket's size).
    public var keyBurst = 200
    /// The operator's secrets key file (32 raw bytes or their base64); nil: the environment's
    /// `RECEIPT_SERVER_SECRETS_KEY`, else a key file beside a SQLite database (`SecretsKeySource`).
    public var secretsKeyFile: String?

    public init() {}

    /// Whether the inspector is served: as `--inspector` says, or without it only on a loopback
    /// `host`. The inspector verifies any bytes anyone posts and answers at length (each
    /// certificate, each purchase): a developer's tool, not a public endpoint.
    public var inspectorEnabled: Bool {
        inspector ?? Self.isLoopback(host)
    }

    /// `localhost`, `127.0.0.0/8` or `::1`.
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The defaults overlaid with a JSON config file's keys (`host`, `port`, `database`, `app`,
    /// `root`, `root-g3`, `legacy-intermediate`, `allow-xcode`, `max-body`, `cache`, `cache-bytes`, `max-verifications`,
    /// `request-timeout`, `max-connections`, `metrics-host`, `metrics-port`, `log-level`,
    /// `idle-timeout`, `inspector`, `inspect-rate`, `inspect-burst`, `key-rate`, `key-burst`,
    /// `secrets-key-file`). An unknown key or a value of the
    /// wrong type is an error, so a typo never passes silently.
    public init(configFile path: String) throws(ConfigurationError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableFile(path) }
        let file: ConfigFile
        do {
            file = try JSONDecoder().decode(ConfigFile.self, from: data)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw .invalidFile(path, Self.describe(error))
        }
        self.init()
        if let value = file.host { host = value }
        if let value = file.port { port = value }
        if let value = file.database { database = value }
        if let value = file.app { apps = value }
        if let value = file.root { roots = value }
        if let value = file.rootG3 { rootsG3 = value }
        if let value = file.legacyIntermediate { legacyIntermediates = value }
        if let value = file.allowXcode { allowXcode = value }
        if let value = file.maxBody { maxBody = value }
        if let value = file.cache { cache = value }
        if let value = file.cacheBytes { cacheBytes = value }
        if let value = file.maxVerifications { maxVerifications = value }
        if let value = file.requestTimeout { requestTimeout = value }
        if let value = file.maxConnections { maxConnections = value }
        if let value = file.metricsHost { metricsHost = value }
        if let value = file.metricsPort { metricsPort = value }
        if let value = file.inspectRate { inspectRate = value }
        if let value = file.inspectBurst { inspectBurst = value }
        if let value = file.logLevel { logLevel = value }
        if let value = file.idleTimeout { idleTimeout = value }
        if let value = file.inspector { inspector = try Self.onOff(value) }
        if let value = file.keyRate { keyRate = value }
        if let value = file.keyBurst { keyBurst = value }
        if let value = file.secretsKeyFile { secretsKeyFile = value }
    }

    /// The configuration file's shape.
    struct ConfigFile: Decodable {
        var host: String?
        var port: Int?
        var database: String?
        var app: [String]?
        var root: [String]?
        var rootG3: [String]?
        var legacyIntermediate: [String]?
        var allowXcode: Bool?
        var maxBody: Int?
        var cache: Int?
        var cacheBytes: Int?
        var maxVerifications: Int?
        var requestTimeout: Int?
        var maxConnections: Int?
        var metricsHost: String?
        var metricsPort: Int?
        var inspectRate: Double?
        var inspectBurst: Int?
        var logLevel: String?
        var idleTimeout: Int?
        var inspector: String?
        var keyRate: Double?
        var keyBurst: Int?
        var secretsKeyFile: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case host, port, database, app, root, cache
            case rootG3 = "root-g3", legacyIntermediate = "legacy-intermediate"
            case allowXcode = "allow-xcode", maxBody = "max-body", logLevel = "log-level", idleTimeout = "idle-timeout"
            case inspector, keyRate = "key-rate", keyBurst = "key-burst", secretsKeyFile = "secrets-key-file"
            case cacheBytes = "cache-bytes", maxVerifications = "max-verifications", requestTimeout = "request-timeout"
            case maxConnections = "max-connections", metricsHost = "metrics-host", metricsPort = "metrics-port"
            case inspectRate = "inspect-rate", inspectBurst = "inspect-burst"
        }

        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let known = Set(CodingKeys.allCases.map(\.rawValue))
            if let unknown = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
                throw ConfigurationError.unknownKey(unknown)
            }
            let c = try decoder.container(keyedBy: CodingKeys.self)
            host = try c.decodeIfPresent(String.self, forKey: .host)
            port = try c.decodeIfPresent(Int.self, forKey: .port)
            database = try c.decodeIfPresent(String.self, forKey: .database)
            app = try c.decodeIfPresent([String].self, forKey: .app)
            root = try c.decodeIfPresent([String].self, forKey: .root)
            rootG3 = try c.decodeIfPresent([String].self, forKey: .rootG3)
            legacyIntermediate = try c.decodeIfPresent([String].self, forKey: .legacyIntermediate)
            allowXcode = try c.decodeIfPresent(Bool.self, forKey: .allowXcode)
            maxBody = try c.decodeIfPresent(Int.self, forKey: .maxBody)
            cache = try c.decodeIfPresent(Int.self, forKey: .cache)
            cacheBytes = try c.decodeIfPresent(Int.self, forKey: .cacheBytes)
            maxVerifications = try c.decodeIfPresent(Int.self, forKey: .maxVerifications)
            requestTimeout = try c.decodeIfPresent(Int.self, forKey: .requestTimeout)
            maxConnections = try c.decodeIfPresent(Int.self, forKey: .maxConnections)
            metricsHost = try c.decodeIfPresent(String.self, forKey: .metricsHost)
            metricsPort = try c.decodeIfPresent(Int.self, forKey: .metricsPort)
            inspectRate = try c.decodeIfPresent(Double.self, forKey: .inspectRate)
            inspectBurst = try c.decodeIfPresent(Int.self, forKey: .inspectBurst)
            logLevel = try c.decodeIfPresent(String.self, forKey: .logLevel)
            idleTimeout = try c.decodeIfPresent(Int.self, forKey: .idleTimeout)
            inspector = try c.decodeIfPresent(String.self, forKey: .inspector)
            keyRate = try c.decodeIfPresent(Double.self, forKey: .keyRate)
            keyBurst = try c.decodeIfPresent(Int.self, forKey: .keyBurst)
            secretsKeyFile = try c.decodeIfPresent(String.self, forKey: .secretsKeyFile)
        }
    }

    /// Checks the values that have ranges.
    public func validate() throws(ConfigurationError) {
        guard (0 ... 65_535).contains(port) else { throw .invalidValue("port", String(port)) }
        guard maxBody > 0 else { throw .invalidValue("max-body", String(maxBody)) }
        guard cache >= 0 else { throw .invalidValue("cache", String(cache)) }
        guard cacheBytes >= 0 else { throw .invalidValue("cache-bytes", String(cacheBytes)) }
        guard maxVerifications >= 1 else { throw .invalidValue("max-verifications", String(maxVerifications)) }
        guard requestTimeout > 0 else { throw .invalidValue("request-timeout", String(requestTimeout)) }
        guard maxConnections >= 1 else { throw .invalidValue("max-connections", String(maxConnections)) }
        if let metricsPort {
            guard (0 ... 65_535).contains(metricsPort) else { throw .invalidValue("metrics-port", String(metricsPort)) }
            guard metricsPort == 0 || metricsPort != port || metricsHost != host else { throw .invalidValue("metrics-port", String(metricsPort)) }
        }
        guard !metricsHost.isEmpty else { throw .invalidValue("metrics-host", metricsHost) }
        guard inspectRate >= 0, inspectRate.isFinite else { throw .invalidValue("inspect-rate", String(inspectRate)) }
        guard inspectBurst >= 1 else { throw .invalidValue("inspect-burst", String(inspectBurst)) }
        guard idleTimeout > 0 else { throw .invalidValue("idle-timeout", String(idleTimeout)) }
        guard !host.isEmpty else { throw .invalidValue("host", host) }
        guard keyRate >= 0, keyRate.isFinite else { throw .invalidValue("key-rate", String(keyRate)) }
        guard keyBurst >= 1 else { throw .invalidValue("key-burst", String(keyBurst)) }
    }

    /// `on` or `off` (`--inspector`).
    public static func onOff(_ text: String) throws(ConfigurationError) -> Bool {
        switch text {
        case "on": return true
        case "off": return false
        default: throw .invalidValue("inspector", text)
        }
    }

    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return "invalid"
        }
    }
}

/// A configuration that cannot be used; the message names the option or key.
public enum ConfigurationError: Error, Sendable, CustomStringConvertible, Equatable {
    case unreadableFile(String)
    case invalidFile(String, String)
    case unknownKey(String)
    case invalidValue(String, String)
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

    public var description: String {
        switch self {
        case .unreadableFile(let path): return "cannot read \(path)"
        case .invalidFile(let path, let reason): return "\(path): \(reason)"
        case .unknownKey(let key): return "unknown configuration key '\(key)'"
        case .invalidValue(let key, let value): return "invalid \(key) '\(value)'"
        case .invalidRoot(let path, let reason): return "--root \(path): not a certificate (\(reason))"
        case .invalidLegacyIntermediate(let path, let reason): return "--legacy-intermediate \(path): not a certificate (\(reason))"
        case .invalidApp(let bundle): return "--app expects BUNDLE_ID[=SHARED_SECRET][@APPLE_ID], got '\(bundle)'"
        case .invalidSecretsKey(let source, let reason): return "secrets key from \(source): \(reason)"
        case .exposedSecretsKey(let path, let mode):
            return "secrets key file \(path) has mode 0\(String(mode, radix: 8)): group or others may read it; run `chmod 600 \(path)` and start again"
        case .missingSecretsKey(let database):
            return "\(database) needs the operator's secrets key: give --secrets-key-file PATH (32 random bytes, raw or base64) or set "
                + "RECEIPT_SERVER_SECRETS_KEY (base64), the same key on every instance; make one with `head -c 32 /dev/urandom | base64`"
        }
    }
}
