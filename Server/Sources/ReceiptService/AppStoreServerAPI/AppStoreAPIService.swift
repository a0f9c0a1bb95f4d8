import Foundation
import Logging
import ReceiptStore
import X509Certificates

/// The App Store Server API answered from the signed data the server holds (DESIGN §13); knows
/// nothing of HTTP. Each method takes the caller's app (the verified JWT's `bid`) and the path's
/// environment, and answers Apple's body or Apple's error. Tokens pass through byte for byte.
public final class AppStoreAPIService: Sendable {
    let store: any ReceiptStorage
    let registry: AppRegistry
    let posted: PostedTransactionVerifier
    let allowXcode: Bool
    let limit: VerificationLimit
    let logger: Logger
    let clock: @Sendable () -> Int64
    let revocation: RevocationGate?

    /// Apple's page size for history, refunds and notifications.
    static let pageSize = 20

    /// `anchors` replace Apple Root CA - G3 for posted transactions (`--root-g3`); `allowXcode`
    /// accepts Xcode-signed transactions at the sandbox prefix and reads them there; `clock` gives
    /// the time statuses are evaluated at (milliseconds since 1970); `revocation`: OCSP on request
    /// for posted tokens (`--revocation ocsp`).
    public init(
        store: any ReceiptStorage, registry: AppRegistry, anchors: [TrustAnchor]?, allowXcode: Bool, limit: VerificationLimit = .unlimited,
        logger: Logger, clock: @escaping @Sendable () -> Int64 = EpochMilliseconds.now, revocation: RevocationGate? = nil
    ) {
        self.store = store
        self.registry = registry
        self.revocation = revocation
        posted = PostedTransactionVerifier(anchors: anchors, allowXcode: allowXcode, revocation: revocation)
        self.allowXcode = allowXcode
        self.limit = limit
        self.logger = logger
        self.clock = clock
    }

    /// Get All Subscription Statuses; `query` holds the repeatable `status` parameter.
    public func subscriptionStatuses(
        transactionID: String, query: [(name: String, value: String)], bundleID: String, environment: String
    ) async -> ServiceAnswer {
        await answer {
            let statuses = try Self.statuses(query)
            let (customer, scope) = try await self.customer(transactionID, bundleID: bundleID, environment: environment)
            return StatusAnswer.json(customer, scope: scope, statuses: statuses, at: self.clock())
        }
    }

    /// Get Transaction Info: the transaction's own stored token.
    public func transactionInfo(transactionID: String, bundleID: String, environment: String) async -> ServiceAnswer {
        await answer {
            let (customer, _) = try await self.customer(transactionID, bundleID: bundleID, environment: environment)
            guard let transaction = customer.transactions.first(where: { $0.transactionID == transactionID }) else {
                throw AppStoreAPIError.transactionNotFound
            }
            return APIJSON.object(["signedTransactionInfo": APIJSON.quoted(transaction.facts.jws)])
        }
    }

    /// Get Transaction History (v1 and v2 answer alike).
    public func history(
        transactionID: String, query: [(name: String, value: String)], bundleID: String, environment: String
    ) async -> ServiceAnswer {
        await answer {
            let request = try HistoryRequest(query: query)
            let (customer, scope) = try await self.customer(transactionID, bundleID: bundleID, environment: environment)
            let page = request.page(customer.transactions, size: Self.pageSize)
            return APIJSON.object([
                "revision": APIJSON.quoted(page.next.encoded(.history)),
                "hasMore": APIJSON.bool(page.hasMore),
                "bundleId": APIJSON.quoted(scope.bundleID),
                "appAppleId": scope.appAppleID.map(String.init),
                "environment": APIJSON.quoted(scope.environment),
                "signedTransactions": APIJSON.array(page.items.map { APIJSON.quoted($0.facts.jws) }),
            ])
        }
    }

    /// Get Refund History: the customer's revoked transactions by revocation date.
    public func refundHistory(
        transactionID: String, query: [(name: String, value: String)], bundleID: String, environment: String
    ) async -> ServiceAnswer {
        await answer {
            let after = try PageToken.revision(in: query, .refunds)
            let (customer, _) = try await self.customer(transactionID, bundleID: bundleID, environment: environment)
            let key = { (t: StoredSignedTransaction) in PageToken(milliseconds: t.facts.revocationMilliseconds ?? 0, id: t.transactionID) }
            let revoked = customer.transactions.filter { $0.facts.revocationMilliseconds != nil }.sorted { key($0) < key($1) }
            let page = Page(revoked, after: after, size: Self.pageSize, key: key)
            return APIJSON.object([
                "signedTransactions": APIJSON.array(page.items.map { APIJSON.quoted($0.facts.jws) }),
                "revision": APIJSON.quoted(page.next.encoded(.refunds)),
                "hasMore": APIJSON.bool(page.hasMore),
            ])
        }
    }

    /// Get Notification History: the notifications this server stored, each with one successful
    /// send attempt dated when it was stored.
    public func notificationHistory(body: Data, paginationToken: String?, bundleID: String, environment: String) async -> ServiceAnswer {
        await answer {
            let request = try NotificationHistoryRequest(body: body, paginationToken: paginationToken)
            var originals: [String]?
            if let id = request.transactionID {
                let (customer, _) = try await self.customer(id, bundleID: bundleID, environment: environment)
                originals = Array(Set(customer.transactions.map(\.originalTransactionID))).sorted()
            }
            let entries: [StoredNotificationEntry]
            if request.onlyFailures {
                entries = []   // every notification this server holds was delivered to it
            } else {
                let query = NotificationHistoryQuery(
                    startMilliseconds: request.startDate, endMilliseconds: request.endDate, type: request.type, subtype: request.subtype,
                    originalTransactionIDs: originals,
                    cursor: request.cursor.map { NotificationCursor(receivedMilliseconds: $0.milliseconds, uuid: $0.id) },
                    limit: Self.pageSize + 1)
                entries = try await self.stored {
                    try await self.store.notificationHistory(bundleID: bundleID, environment: environment, query: query)
                }
            }
            let page = Array(entries.prefix(Self.pageSize))
            let next = page.last.map { PageToken(milliseconds: $0.receivedMilliseconds, id: $0.uuid) } ?? request.cursor ?? .start
            return APIJSON.object([
                "notificationHistory": APIJSON.array(
                    page.map { entry in
                        APIJSON.object([
                            "signedPayload": APIJSON.quoted(entry.signedPayload),
                            "sendAttempts": APIJSON.array([
                                APIJSON.object([
                                    "attemptDate": String(entry.receivedMilliseconds), "sendAttemptResult": APIJSON.quoted("SUCCESS"),
                                ])
                            ]),
                        ])
                    }),
                "hasMore": APIJSON.bool(entries.count > Self.pageSize),
                "paginationToken": APIJSON.quoted(next.encoded(.notifications)),
            ])
        }
    }

    /// `POST /inApps/v1/transactions` (ours): verifies and stores a transaction or an app
    /// transaction an app's backend posts, then answers the customer's statuses (`data: []` for a
    /// non-subscription or an app transaction). 429 with `Retry-After` when every verification
    /// slot is taken.
    public func post(body: Data, bundleID: String, environment: String) async -> ServiceAnswer {
        let token: PostedToken
        do { token = try PostedToken(body: body) } catch { return error.answer() }
        let verify = { () throws(AppStoreAPIError) -> PostedVerdict in
            switch token {
            case .transaction(let jws): return .transaction(try self.posted.transaction(jws, bundleID: bundleID, at: environment))
            case .appTransaction(let jws): return .appTransaction(try self.posted.appTransaction(jws, bundleID: bundleID, at: environment))
            }
        }
        let verified = await limit.run(at: "/inApps/v1/transactions") { () async -> Result<PostedVerdict, AppStoreAPIError> in
            do throws(AppStoreAPIError) {
                if let revocation { return .success(try await revocation.verifying(verify)) }
                return .success(try verify())
            } catch {
                return .failure(error)
            }
        }
        guard let verified else { return AppStoreAPIError.rateLimited.answer(retryAfter: VerificationLimit.retryAfterSeconds) }
        return await answer {
            switch try verified.get() {
            case .appTransaction(let app):
                if let record = app.record { try await self.stored { try await self.store.save(record) } }
                let scope = APIScope(bundleID: bundleID, environment: app.environment, appAppleID: self.registry.appleID(for: bundleID))
                return StatusAnswer.json(CustomerRecords(transactions: [], renewals: []), scope: scope, statuses: nil, at: self.clock())
            case .transaction(let record):
                try await self.stored { try await self.store.save(WebhookEvent.attached(to: record)) }
                let (customer, scope) = try await self.customer(
                    record.transaction.transactionID, bundleID: bundleID, environment: record.environment)
                return StatusAnswer.json(customer, scope: scope, statuses: nil, at: self.clock())
            }
        }
    }

    enum PostedVerdict: Sendable {
        case transaction(PostedTransaction)
        case appTransaction(PostedAppTransaction)
    }

    /// What `receipt-server subscriptions` prints: the Get All Subscription Statuses body at
    /// `time`, or the error's body.
    public func statuses(transactionID: String, bundleID: String, environment: String, at time: Int64) async -> ServiceAnswer {
        await answer {
            let (customer, scope) = try await self.customer(transactionID, bundleID: bundleID, environment: environment)
            return StatusAnswer.json(customer, scope: scope, statuses: nil, at: time)
        }
    }

    // MARK: - Shared steps

    /// The customer of a transaction id in `environment` (and, at the sandbox prefix with
    /// `--allow-xcode`, among Xcode-signed transactions when not in the sandbox's).
    func customer(_ transactionID: String, bundleID: String, environment: String) async throws(AppStoreAPIError) -> (
        CustomerRecords, APIScope
    ) {
        guard TransactionID.isValid(transactionID) else { throw .invalidTransactionID }
        for candidate in environments(at: environment) {
            let found = try await stored { try await self.store.customer(bundleID: bundleID, environment: candidate, transactionID: transactionID) }
            if let found {
                return (found, APIScope(bundleID: bundleID, environment: candidate, appAppleID: registry.appleID(for: bundleID)))
            }
        }
        throw .transactionNotFound
    }

    /// Where stored data of the path's environment is looked for: the sandbox's, then (with
    /// `--allow-xcode`) Xcode's at the sandbox prefix.
    func environments(at environment: String) -> [String] {
        environment == "Sandbox" && allowXcode ? ["Sandbox", "Xcode"] : [environment]
    }

    /// A storage call; a failure is logged (never a token) and becomes 5000001.
    func stored<T>(_ work: () async throws -> T) async throws(AppStoreAPIError) -> T {
        do {
            return try await work()
        } catch {
            logger.error("storage unavailable", metadata: ["error": "\(error)", "surface": "App Store Server API"])
            throw .unknown
        }
    }

    /// The body a step builds, or its error's answer.
    func answer(_ body: () async throws -> String) async -> ServiceAnswer {
        do {
            return ServiceAnswer(try await body())
        } catch let error as AppStoreAPIError {
            return error.answer()
        } catch {
            logger.error("unexpected error", metadata: ["error": "\(error)", "surface": "App Store Server API"])
            return AppStoreAPIError.unknown.answer()
        }
    }

    /// The `status` parameters (each 1 to 5); nil when there are none.
    static func statuses(_ query: [(name: String, value: String)]) throws(AppStoreAPIError) -> Set<SubscriptionStatus>? {
        let values = query.filter { $0.name == "status" }.map(\.value)
        guard !values.isEmpty else { return nil }
        var statuses = Set<SubscriptionStatus>()
        for value in values {
            guard let number = Int(value), let status = SubscriptionStatus(rawValue: number) else { throw .invalidStatus }
            statuses.insert(status)
        }
        return statuses
    }
}
