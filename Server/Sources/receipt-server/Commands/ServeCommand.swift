import ArgumentParser
import Logging

/// Runs the server until SIGTERM or SIGINT.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve verifyReceipt over HTTP (the default command).")

    @OptionGroup var storage: DatabaseOptions
    @Option(help: "Address to listen on (default 127.0.0.1).") var host: String?
    @Option(help: "Port to listen on (default 8080).") var port: Int?
    @Option(name: .customLong("app"), help: "BUNDLE_ID[=SHARED_SECRET][@APPLE_ID], repeatable: only these apps are served.")
    var apps: [String] = []
    @Option(name: .customLong("root"), help: "Certificate replacing Apple Root CA as anchor (App Store rules kept), repeatable.")
    var roots: [String] = []
    @Option(name: .customLong("root-g3"), help: "Certificate replacing Apple Root CA - G3 as the notifications' anchor (rules kept), repeatable.")
    var rootsG3: [String] = []
    @Option(
        name: .customLong("legacy-intermediate"),
        help: "Certificate replacing the embedded intermediates of iOS 6 transaction receipts (with --root, for test chains), repeatable.")
    var legacyIntermediates: [String] = []
    @Flag(help: "Accept Xcode StoreKit-testing receipts at the sandbox endpoint (development only).")
    var allowXcode = false
    @Option(help: "Largest request body in bytes (default 1048576).") var maxBody: Int?
    @Option(help: "Verification cache entries; 0 turns it off (default 10000).") var cache: Int?
    @Option(help: "Bytes the verification cache may hold (default 67108864, 64 MiB).") var cacheBytes: Int?
    @Option(help: "Verifications in flight at once; past it requests are shed: 21100 retryable, or 503 with Retry-After (default 64).")
    var maxVerifications: Int?
    @Option(help: "Seconds a client has to send a whole request, headers and body (default 10).") var requestTimeout: Int?
    @Option(help: "Open connections at most; past it new ones wait to be accepted (default 1024).") var maxConnections: Int?
    @Option(help: "Address of the /metrics listener (default 127.0.0.1).") var metricsHost: String?
    @Option(help: "Port of the /metrics listener; without it /metrics is not served; 0: any free port.") var metricsPort: Int?
    @Option(help: "trace, debug, info, notice, warning, error or critical (default info).") var logLevel: String?
    @Option(help: "Seconds a silent connection is kept open (default 30).") var idleTimeout: Int?
    @Option(help: "on or off: the inspector page (GET /) and POST /inspect (default on for a loopback --host, off otherwise).")
    var inspector: String?
    @Option(help: "POST /inspect: requests a second per client address; 0 turns the limit off (default 2).") var inspectRate: Double?
    @Option(help: "POST /inspect: requests a client address may send at once (default 20).") var inspectBurst: Int?
    @Option(help: "Hosted API: requests a second per API key; 0 turns the limit off (default 100).") var keyRate: Double?
    @Option(help: "Hosted API: requests an API key may send at once (default 200).") var keyBurst: Int?
    @Option(help: "none or ocsp: check StoreKit 2 certificates with the OCSP responders they name (default none: nothing online).")
    var revocation: String?
    @Option(name: .customLong("ocsp-cache-ttl"), help: "With --revocation ocsp: seconds an OCSP answer is kept at most, 1 to 86400 (default 3600).")
    var ocspCacheTTL: Int?
    @Option(
        name: .customLong("retention-message"),
        help: "BUNDLE_ID=MESSAGE_UUID[:PRODUCT_ID], repeatable: the retention message answered for the app (:PRODUCT_ID: a switch-plan message).")
    var retentionMessages: [String] = []
    @Option(help: "Webhooks: how long one delivery attempt may take, e.g. 10s or 500ms (default 10s).") var webhookTimeout: String?
    @Option(
        help: "Webhooks: delays before each retry, comma-separated, e.g. 1s,2s,4s (default 5m,10m,20m,40m,80m,1d,1d,1d; then failed).")
    var webhookRetrySchedule: String?
    @Option(help: "Webhooks: how long delivered deliveries are kept, e.g. 7d or 12h (default 7d; 0 keeps them for ever).")
    var webhookRetention: String?

    func run() async throws {
        var configuration = try storage.configuration()
        if let host { configuration.host = host }
        if let port { configuration.port = port }
        if !apps.isEmpty { configuration.apps = apps }
        if !roots.isEmpty { configuration.roots = roots }
        if !rootsG3.isEmpty { configuration.rootsG3 = rootsG3 }
        if !legacyIntermediates.isEmpty { configuration.legacyIntermediates = legacyIntermediates }
        if allowXcode { configuration.allowXcode = true }
        if let maxBody { configuration.maxBody = maxBody }
        if let cache { configuration.cache = cache }
        if let cacheBytes { configuration.cacheBytes = cacheBytes }
        if let maxVerifications { configuration.maxVerifications = maxVerifications }
        if let requestTimeout { configuration.requestTimeout = requestTimeout }
        if let maxConnections { configuration.maxConnections = maxConnections }
        if let metricsHost { configuration.metricsHost = metricsHost }
        if let metricsPort { configuration.metricsPort = metricsPort }
        if let inspectRate { configuration.inspectRate = inspectRate }
        if let inspectBurst { configuration.inspectBurst = inspectBurst }
        if let logLevel { configuration.logLevel = logLevel }
        if let idleTimeout { configuration.idleTimeout = idleTimeout }
        if let inspector { configuration.inspector = try ServerConfiguration.onOff(inspector) }
        if let keyRate { configuration.keyRate = keyRate }
        if let keyBurst { configuration.keyBurst = keyBurst }
        if let revocation { configuration.revocation = try ServerConfiguration.checkedRevocation(revocation) }
        if let ocspCacheTTL { configuration.ocspCacheTTL = try ServerConfiguration.checkedOCSPCacheTTL(ocspCacheTTL) }
        if !retentionMessages.isEmpty { configuration.retentionMessages = retentionMessages }
        if let webhookTimeout { configuration.webhookTimeout = webhookTimeout }
        if let webhookRetrySchedule { configuration.webhookRetrySchedule = webhookRetrySchedule }
        if let webhookRetention { configuration.webhookRetention = webhookRetention }
        let logger = try makeLogger(configuration.logLevel)
        let host = configuration.host
        let application = try await ServerApplication.make(configuration, logger: logger) { port in
            logger.info("listening", metadata: ["host": "\(host)", "port": "\(port)"])
        }
        try await application.runService()
        logger.info("stopped")
    }
}
