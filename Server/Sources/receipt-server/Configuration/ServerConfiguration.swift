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
    /// `none` (the default: nothing online) or `ocsp`: the certificates of StoreKit 2 signed data
    /// are checked with the OCSP responders they name (`RevocationGate`).
    public var revocation = "none"
    /// `ocsp`: seconds an OCSP answer is kept at most (never past its nextUpdate).
    public var ocspCacheTTL = 3600
    /// `BUNDLE_ID=MESSAGE_UUID[:PRODUCT_ID]` values: the retention message answered for each app
    /// at the Get Retention Message endpoint (with a product id, a switch-plan message).
    public var retentionMessages: [String] = []
    /// Webhooks (issue 38): how long one delivery attempt may take (`10s`, `500ms`, …).
    public var webhookTimeout = "10s"
    /// Webhooks: the delays before each retry, comma-separated (`WebhookRetrySchedule`).
    public var webhookRetrySchedule = "5m,10m,20m,40m,80m,1d,1d,1d"
    /// Webhooks: how long delivered deliveries are kept (`7d`, …; `0` keeps them for ever).
    public var webhookRetention = "7d"

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
    /// `secrets-key-file`, `revocation`, `ocsp-cache-ttl`, `retention-message`, `webhook-timeout`,
    /// `webhook-retry-schedule`, `webhook-retention`). An unknown key or a value of the wrong type is an error naming the
    /// file and the key (and the type expected), so a typo never passes silently; a list key
    /// (`app`, `root`, `root-g3`, `legacy-intermediate`, `retention-message`) also takes one string; `null` is as if
    /// the key were absent.
    public init(configFile path: String) throws(ConfigurationError) {
        let file = try ConfigFile(path: path)
        self.init()
        do throws(ConfigurationError) {
            if let value = try file.string("host") { host = value }
            if let value = try file.integer("port") { port = value }
            if let value = try file.string("database") { database = value }
            if let value = try file.strings("app") { apps = value }
            if let value = try file.strings("root") { roots = value }
            if let value = try file.strings("root-g3") { rootsG3 = value }
            if let value = try file.strings("legacy-intermediate") { legacyIntermediates = value }
            if let value = try file.bool("allow-xcode") { allowXcode = value }
            if let value = try file.integer("max-body") { maxBody = value }
            if let value = try file.integer("cache") { cache = value }
            if let value = try file.integer("cache-bytes") { cacheBytes = value }
            if let value = try file.integer("max-verifications") { maxVerifications = value }
            if let value = try file.integer("request-timeout") { requestTimeout = value }
            if let value = try file.integer("max-connections") { maxConnections = value }
            if let value = try file.string("metrics-host") { metricsHost = value }
            if let value = try file.integer("metrics-port") { metricsPort = value }
            if let value = try file.number("inspect-rate") { inspectRate = value }
            if let value = try file.integer("inspect-burst") { inspectBurst = value }
            if let value = try file.string("log-level") { logLevel = try Self.checkedLogLevel(value) }
            if let value = try file.integer("idle-timeout") { idleTimeout = value }
            if let value = try file.string("inspector") { inspector = try Self.onOff(value) }
            if let value = try file.number("key-rate") { keyRate = value }
            if let value = try file.integer("key-burst") { keyBurst = value }
            if let value = try file.string("secrets-key-file") { secretsKeyFile = value }
            if let value = try file.string("revocation") { revocation = try Self.checkedRevocation(value) }
            if let value = try file.integer("ocsp-cache-ttl") { ocspCacheTTL = try Self.checkedOCSPCacheTTL(value) }
            if let value = try file.strings("retention-message") { retentionMessages = value }
            if let value = try file.string("webhook-timeout") { webhookTimeout = value }
            if let value = try file.string("webhook-retry-schedule") { webhookRetrySchedule = value }
            if let value = try file.string("webhook-retention") { webhookRetention = value }
        } catch .invalidValue(let key, let value) {
            throw .inFile(path: path, .invalidValue(key, value))
        }
    }

    /// The configuration file's keys: the long flags' names.
    static let fileKeys: [String] = [
        "host", "port", "database", "app", "root", "root-g3", "legacy-intermediate", "allow-xcode", "max-body", "cache",
        "cache-bytes", "max-verifications", "request-timeout", "max-connections", "metrics-host", "metrics-port",
        "inspect-rate", "inspect-burst", "log-level", "idle-timeout", "inspector", "key-rate", "key-burst", "secrets-key-file",
        "revocation", "ocsp-cache-ttl", "retention-message",
        "webhook-timeout", "webhook-retry-schedule", "webhook-retention",
    ]

    /// `text` when it is `none` or `ocsp`.
    public static func checkedRevocation(_ text: String) throws(ConfigurationError) -> String {
        guard text == "none" || text == "ocsp" else { throw .invalidValue("revocation", text) }
        return text
    }

    /// `seconds` when in 1 to 86400 (a day: OCSP answers of Apple's responders last about that long).
    public static func checkedOCSPCacheTTL(_ seconds: Int) throws(ConfigurationError) -> Int {
        guard (1 ... 86_400).contains(seconds) else { throw .invalidValue("ocsp-cache-ttl", String(seconds)) }
        return seconds
    }

    /// `--log-level`'s values.
    public static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// `text` when it is one of `logLevels`.
    public static func checkedLogLevel(_ text: String) throws(ConfigurationError) -> String {
        guard logLevels.contains(text) else { throw .invalidValue("log-level", text) }
        return text
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
}
