import AppReceipt
import Foundation
import Logging
import X509Certificates
import ReceiptStore

/// The `verifyReceipt` protocol over the root library and a store; knows nothing of HTTP.
///
/// Statuses in Apple's order (DESIGN §12): 21000 not a JSON object; 21002 `receipt-data` missing,
/// not base64 or not a receipt; 21003 not authentic; 21007/21008 wrong endpoint for the
/// receipt's environment; 21010 app not served; 21004 shared secret; 21100 storage unavailable;
/// else 0, after the receipt is durable in the store (or, for an iOS 6 style transaction
/// receipt of an expired subscription, 21006: `TransactionReceiptAnswer`).
public final class VerifyReceiptService: Sendable {
    /// What the service is configured with.
    public struct Configuration: Sendable {
        /// Anchors replacing Apple Root CA under the App Store rules (`--root`); nil: Apple Root CA.
        public var roots: [TrustAnchor]?
        /// Intermediates replacing the embedded ones for transaction receipts
        /// (`--legacy-intermediate`); nil: Apple's.
        public var legacyIntermediates: [Certificate]?
        /// Xcode StoreKit-testing receipts at the sandbox endpoint (`--allow-xcode`).
        public var allowXcode: Bool
        /// Verification cache entries (`--cache`); 0 turns it off.
        public var cacheCapacity: Int
        /// Bytes the verification cache's entries may take (`--cache-bytes`).
        public var cacheBytes: Int
        /// Verifications in flight at most, shared with the other routes (`--max-verifications`).
        public var limit: VerificationLimit
        /// OCSP on request for the receipts' signer and intermediate (`--revocation ocsp`); nil: none.
        public var revocation: RevocationGate?

        /// A configuration; the cache defaults are the command line's, and without `limit` nothing is shed.
        public init(
            roots: [TrustAnchor]? = nil, legacyIntermediates: [Certificate]? = nil, allowXcode: Bool = false,
            cacheCapacity: Int = 10_000, cacheBytes: Int = 64 << 20, limit: VerificationLimit = .unlimited,
            revocation: RevocationGate? = nil
        ) {
            self.revocation = revocation
            self.roots = roots
            self.legacyIntermediates = legacyIntermediates
            self.allowXcode = allowXcode
            self.cacheCapacity = cacheCapacity
            self.cacheBytes = cacheBytes
            self.limit = limit
        }
    }

    let store: any ReceiptStorage
    let registry: AppRegistry
    let verifier: ReceiptVerifier
    let cache: VerificationCache
    let allowXcode: Bool
    let metrics: ServiceMetrics
    let logger: Logger
    /// Verifications in flight (shared with the hosted API, notifications and the inspector).
    public let limit: VerificationLimit
    let refusals: RefusalLog
    let revocation: RevocationGate?

    public init(
        store: any ReceiptStorage, registry: AppRegistry, configuration: Configuration,
        metrics: ServiceMetrics, logger: Logger
    ) {
        self.store = store
        self.registry = registry
        verifier = ReceiptVerifier(roots: configuration.roots, legacyIntermediates: configuration.legacyIntermediates)
        cache = VerificationCache(capacity: configuration.cacheCapacity, byteLimit: configuration.cacheBytes)
        allowXcode = configuration.allowXcode
        self.metrics = metrics
        self.logger = logger
        limit = configuration.limit
        revocation = configuration.revocation
        refusals = RefusalLog(kind: "receipt", logger: logger, factory: metrics.factory)
    }

    /// Answers a request body posted to `endpoint`; when every verification slot is taken, 21100
    /// with `"is-retryable": true` at once, and `Retry-After`. Always HTTP 200, as Apple's.
    public func verify(body: Data, at endpoint: VerifyEndpoint, now: Date = Date()) async -> ServiceAnswer {
        guard let answer = await limit.run(at: endpoint.path, { await self.answer(body: body, at: endpoint, now: now) }) else {
            metrics.answered(endpoint, .storageUnavailable)
            return VerifyAnswer(status: .storageUnavailable, json: ResponseJSON.failure(.storageUnavailable), shed: true).answer
        }
        metrics.answered(endpoint, answer.status)
        if !answer.status.isAnswered && answer.status != .storageUnavailable {
            refusals.refused("receipt refused", ["endpoint": "\(endpoint.path)", "status": "\(answer.status.rawValue)"])
        }
        return answer.answer
    }

    /// The answer when there is no body to read: a method other than POST, or a body the client
    /// never finished sending.
    public func unreadableRequest(at endpoint: VerifyEndpoint) -> ServiceAnswer {
        metrics.answered(endpoint, .unreadableRequest)
        return failure(.unreadableRequest).answer
    }

    private func answer(body: Data, at endpoint: VerifyEndpoint, now: Date) async -> VerifyAnswer {
        guard let request = VerifyRequest(json: body) else { return failure(.unreadableRequest) }
        guard let text = request.receiptData.value, let bytes = ReceiptData.decode(text) else { return failure(.malformedReceipt) }
        let receipt: CheckedReceipt
        switch check(bytes, at: endpoint) {
        case .refused(let status, let claim): return VerifyAnswer(status: status, json: ResponseJSON.failure(status, unprovenClaim: claim))
        case .authentic(let checked): receipt = checked
        }
        if let status = await revocationRefusal(receipt.verified) { return failure(status) }
        switch registry.decision(for: receipt.verified.record.bundleID) {
        case .notServed:
            return failure(.appNotServed)
        case .served(let secret?) where receipt.verified.hasSubscription && !AppRegistry.matches(password: request.password.value, expected: secret):
            return failure(.sharedSecretMismatch)
        case .served:
            break
        }
        return await remember(receipt, at: endpoint, excludeOld: request.excludeOldTransactions, now: now)
    }

    /// With `--revocation ocsp`, the status refusing an authentic receipt whose signer or
    /// intermediate is revoked (or unknown to its responder, or names none: 21003), or whose status
    /// could not be had now (21100, retryable); nil when both are good, and always without the flag.
    /// Asked on every request, cached verdicts included: the OCSP cache decides how long a good
    /// answer holds (`--ocsp-cache-ttl`), not the verification cache.
    /// iOS 6 transaction receipts are not asked about: their certificates (PurchaseReceiptCertificate,
    /// Apple iTunes Store CA) carry no extensions, so no responder; refusing them would refuse every one.
    func revocationRefusal(_ receipt: VerifiedReceipt) async -> VerifyStatus? {
        guard let revocation, receipt.transactionReceipt == nil else { return nil }
        do throws(RevocationCheckError) {
            try await revocation.verifying { () throws(RevocationCheckError) in try revocation.check(path: receipt.chain) }
            return nil
        } catch {
            switch error {   // as `JWSError.category` sorts them
            case .revoked, .noResponder, .unknownCertificate: return .notAuthenticated
            case .unavailable, .responseRefused: return .storageUnavailable
            }
        }
    }

    /// Receipt bytes checked up to the app: decoded and verified (21002, 21003) and at home at
    /// `endpoint` (21007, 21008).
    enum Check: Sendable {
        /// Refused with `status`; `unprovenClaim` is the environment a transaction receipt
        /// refused for its environment says it is from, which nothing signed proves.
        case refused(VerifyStatus, unprovenClaim: ReceiptEnvironment?)
        case authentic(CheckedReceipt)
    }

    /// An authentic receipt at its endpoint, with its cache key and whether it is stored already.
    struct CheckedReceipt: Sendable {
        let verified: VerifiedReceipt
        let key: VerificationCache.Key
        let stored: Bool
    }

    func check(_ bytes: [UInt8], at endpoint: VerifyEndpoint) -> Check {
        let sha256 = ReceiptVerifier.sha256(bytes)
        let key = VerificationCache.Key(sha256: sha256, context: endpoint == .sandbox && allowXcode ? .xcodeAllowed : .appStoreOnly)
        let entry = verdict(bytes, key)
        guard case .authentic(let receipt) = entry.verdict else {
            return .refused(entry.verdict.isMalformed ? .malformedReceipt : .notAuthenticated, unprovenClaim: nil)
        }
        if let claim = receipt.unprovenEnvironmentClaim {
            let trusted = registry.acceptsUnprovenLegacyProduction(receipt.record.bundleID)
            if let mismatch = Self.unprovenEnvironmentMismatch(claim, endpoint, trustingProductionClaims: trusted) {
                return .refused(mismatch, unprovenClaim: claim)
            }
            // Stored in the endpoint's environment as its signed form: `stored` is about the bytes
            // sent, which other endpoints (and other variants of the receipt) share.
            return .authentic(CheckedReceipt(verified: receipt.admitted(at: endpoint), key: key, stored: false))
        }
        if let mismatch = environmentMismatch(receipt.environment, endpoint) { return .refused(mismatch, unprovenClaim: nil) }
        return .authentic(CheckedReceipt(verified: receipt, key: key, stored: entry.stored))
    }

    /// Where a transaction receipt is at home, when nothing signed tells its environment (its
    /// `environment` line is outside the signature: DESIGN §14, Server/README "Trust"). A claim
    /// of the sandbox is believed (it gains nothing): 21007 at production. A claim of production
    /// is believed only for an app whose operator chose to (`trustingProductionClaims`), with
    /// Apple's 21008 at the sandbox endpoint; otherwise the receipt is answered as a sandbox one,
    /// 21007 at production (a client retries at the sandbox endpoint, as Apple tells it to).
    static func unprovenEnvironmentMismatch(
        _ claim: ReceiptEnvironment, _ endpoint: VerifyEndpoint, trustingProductionClaims: Bool
    ) -> VerifyStatus? {
        switch (claim == .production && trustingProductionClaims, endpoint) {
        case (true, .production), (false, .sandbox): return nil
        case (false, .production): return .sandboxReceiptAtProduction
        case (true, .sandbox): return .productionReceiptAtSandbox
        }
    }

    /// Status 0 for an admitted receipt, once it is durable (21100 when storage fails): stores
    /// it unless stored already, and reads the history of its subscriptions. `route` names the
    /// path the request came to in the logs (the hosted API's; default `endpoint`'s).
    func remember(
        _ checked: CheckedReceipt, at endpoint: VerifyEndpoint, excludeOld: Bool, now: Date,
        route: String? = nil
    ) async -> VerifyAnswer {
        let receipt = checked.verified
        do {
            // The save and the read share one storage deadline: 21100 within 5 s, not 5 s each.
            let history: PurchaseHistory? = try await StorageDeadline.shared {
                if !checked.stored {
                    try await metrics.storageSave.measure { try await store.save(receipt.record) }
                    cache.markStored(checked.key)
                }
                guard receipt.hasSubscription else { return nil }
                return try await metrics.storageHistory.measure {
                    try await store.history(
                        bundleID: receipt.record.bundleID, environment: receipt.record.environment,
                        originalTransactionIDs: receipt.subscriptionOriginalIDs)
                }
            }
            logger.debug(
                "verified",
                metadata: [
                    "receipt_sha256": "\(Self.hex(receipt.record.sha256.prefix(8)))",
                    "bundle_id": "\(receipt.record.bundleID)", "endpoint": "\(route ?? endpoint.path)",
                ])
            if receipt.isTransactionReceipt { return TransactionReceiptAnswer.answer(receipt, history: history, now: now) }
            return VerifyAnswer(
                status: .valid,
                json: ResponseJSON.valid(
                    receipt, requestDate: now, history: history,
                    excludeOld: excludeOld))
        } catch {
            logger.error("storage unavailable", metadata: ["error": "\(error)", "endpoint": "\(route ?? endpoint.path)"])
            return failure(.storageUnavailable)
        }
    }

    /// The cached verdict for these bytes in this context, or a new verification (authentic
    /// verdicts cached with their bytes, refusals by SHA-256 only, malformed input not at all).
    private func verdict(_ bytes: [UInt8], _ key: VerificationCache.Key) -> VerificationCache.Entry {
        if let entry = cache.lookup(key, bytes: bytes) {
            metrics.cacheHits.increment()
            return entry
        }
        if cache.isRefused(key) {
            metrics.cacheHits.increment()
            return VerificationCache.Entry(bytes: [], verdict: .notAuthentic, stored: false)
        }
        metrics.cacheMisses.increment()
        let verdict = metrics.verification.measure { verifier.verify(bytes, context: key.context) }
        let entry = VerificationCache.Entry(bytes: bytes, verdict: verdict, stored: false)
        switch verdict {
        case .authentic: cache.insert(key, entry)
        case .notAuthentic: cache.insertRefused(key)
        case .malformed: break
        }
        return entry
    }

    /// 21007 for a sandbox receipt at production, 21008 for a production one at the sandbox
    /// endpoint (Xcode receipts count as sandbox ones; any other environment is at home nowhere).
    func environmentMismatch(_ environment: ReceiptEnvironment, _ endpoint: VerifyEndpoint) -> VerifyStatus? {
        switch (environment, endpoint) {
        case (.production, .production), (.productionVPP, .production): return nil
        case (.sandbox, .sandbox), (.productionSandbox, .sandbox), (.productionVPPSandbox, .sandbox): return nil
        case (.xcode, .sandbox) where allowXcode: return nil
        case (_, .production): return .sandboxReceiptAtProduction
        case (_, .sandbox): return .productionReceiptAtSandbox
        }
    }

    private func failure(_ status: VerifyStatus) -> VerifyAnswer {
        VerifyAnswer(status: status, json: ResponseJSON.failure(status))
    }

    static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension Verdict {
    var isMalformed: Bool {
        if case .malformed = self { return true }
        return false
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
