import Logging
import ReceiptStore
import X509Certificates

/// `receipt-server import`'s logic (no HTTP of any kind): reads customers from an App Store Server
/// API (`ImportSource`: Apple's, or another receipt-server) and stores every signed token exactly
/// as `POST /inApps/v1/transactions` stores a posted one: verified by `PostedTransactionVerifier`
/// under the server's trust anchors for the importing app and environment, saved as a
/// `PostedTransaction` (one row per transaction id, the latest `signedDate` wins; a renewal info
/// per original transaction id by the same rule). A customer stays what it is everywhere: the
/// `originalTransactionId` family of what is stored.
///
/// Progress is durable (`ImportProgressStore`): after each history page's transactions are
/// stored, its `revision`; once the statuses are stored too, completion. A re-run skips what is
/// complete and resumes the rest after the last stored page.
public final class ImportService: Sendable {
    let store: any ReceiptStorage
    let source: any ImportSource
    let verifier: PostedTransactionVerifier
    let bundleID: String
    let environment: String
    let limits: ImportLimits
    let logger: Logger
    let clock: @Sendable () -> Int64

    /// An import for `bundleID` in `environment` (`Production` or `Sandbox`); `anchors` replace
    /// Apple Root CA - G3 under the same rules (`--root-g3`).
    public init(
        store: any ReceiptStorage, source: any ImportSource, bundleID: String, environment: String, anchors: [TrustAnchor]?,
        limits: ImportLimits = ImportLimits(), logger: Logger, clock: @escaping @Sendable () -> Int64 = EpochMilliseconds.now
    ) {
        self.store = store
        self.source = source
        verifier = PostedTransactionVerifier(anchors: anchors, allowXcode: false)
        self.bundleID = bundleID
        self.environment = environment
        self.limits = limits
        self.logger = logger
        self.clock = clock
    }

    /// Whether the database's app registry serves the importing app (an empty registry serves
    /// every app), as it must for the app's posted transactions.
    public func appIsServed() async throws -> Bool {
        AppRegistry(try await store.apps()).decision(for: bundleID) != .notServed
    }

    /// Imports one transaction id's customer: its history, page after page until `hasMore` is
    /// false, then its subscription statuses (the last transactions and renewal infos).
    public func importCustomer(_ transactionID: String) async -> ImportOutcome {
        guard TransactionID.isValid(transactionID) else {
            return .failed(ImportFailure(transactionId: transactionID, reason: "not a transaction id (1 to 32 digits)"))
        }
        let key = ImportKey(bundleID: bundleID, environment: environment, transactionID: transactionID)
        do throws(ImportStepFailure) {
            let progress = try await stored { try await self.store.importProgress(key) }
            if progress?.isComplete == true { return .skipped }
            var ids = Set<String>()
            let revision = try await history(of: key, after: progress?.revision, ids: &ids)
            let renewals = try await statuses(of: key, ids: &ids)
            let completed = ImportProgress(revision: revision, completedMilliseconds: clock())
            try await stored { try await self.store.recordImportProgress(key, completed) }
            return .imported(transactions: ids.count, renewals: renewals)
        } catch {
            return .failed(error.failure(transactionID))
        }
    }

    /// Reads and stores the history after `revision`; returns the last page's revision.
    private func history(of key: ImportKey, after revision: String?, ids: inout Set<String>) async throws(ImportStepFailure) -> String? {
        var revision = revision
        for _ in 0 ..< limits.maxPages {
            let page: ImportHistoryPage
            do {
                page = try await source.history(transactionID: key.transactionID, revision: revision)
            } catch {
                throw .fetch(error)
            }
            guard page.revision.utf8.count <= limits.maxRevisionBytes else {
                throw .upstream("the history's revision is longer than \(limits.maxRevisionBytes) bytes")
            }
            var records: [PostedTransaction] = []
            for (index, token) in page.signedTransactions.enumerated() {
                do throws(AppStoreAPIError) {
                    records.append(try verifier.transaction(token, bundleID: bundleID, at: environment))
                } catch {
                    throw .refused("history item \(index + 1): \(Self.reason(error))")
                }
            }
            try await save(records)
            ids.formUnion(records.map(\.transaction.transactionID))
            let advanced = page.revision != revision
            revision = page.revision
            try await stored { try await self.store.recordImportProgress(key, ImportProgress(revision: revision, completedMilliseconds: nil)) }
            guard page.hasMore else { return revision }
            guard advanced else { throw .upstream("the history says hasMore but its revision did not advance") }
        }
        throw .upstream("the history has more than \(limits.maxPages) pages")
    }

    /// Reads and stores the subscription statuses' last transactions and renewal infos; returns
    /// how many renewal infos were stored. A 404 here (after the history was found) is a customer
    /// without subscriptions.
    private func statuses(of key: ImportKey, ids: inout Set<String>) async throws(ImportStepFailure) -> Int {
        let entries: [ImportStatusEntry]
        do {
            entries = try await source.subscriptionStatuses(transactionID: key.transactionID)
        } catch  where error.httpStatus == 404 {
            return 0
        } catch {
            throw .fetch(error)
        }
        var records: [PostedTransaction] = []
        for (index, entry) in entries.enumerated() {
            do throws(AppStoreAPIError) {
                var record = try verifier.transaction(entry.signedTransactionInfo, bundleID: bundleID, at: environment)
                guard record.transaction.originalTransactionID == entry.originalTransactionID else {
                    throw .badRequest(
                        "originalTransactionId \(entry.originalTransactionID), its signedTransactionInfo's is "
                            + record.transaction.originalTransactionID)
                }
                record.renewalInfo = try entry.signedRenewalInfo.map { token throws(AppStoreAPIError) in
                    try verifier.renewal(token, beside: record)
                }
                records.append(record)
            } catch {
                throw .refused("status entry \(index + 1): \(Self.reason(error))")
            }
        }
        try await save(records)
        ids.formUnion(records.map(\.transaction.transactionID))
        return records.filter { $0.renewalInfo != nil }.count
    }

    /// Stores `records` through the posted transactions' writer, all submitted at once (its group
    /// commit takes them in as few transactions as it can); returns when all are durable.
    private func save(_ records: [PostedTransaction]) async throws(ImportStepFailure) {
        try await stored {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for record in records { group.addTask { try await self.store.save(record) } }
                try await group.waitForAll()
            }
        }
    }

    /// A storage call; a failure is logged (never a token) and fails the transaction id.
    private func stored<T>(_ work: () async throws -> T) async throws(ImportStepFailure) -> T {
        do {
            return try await work()
        } catch {
            logger.error("storage unavailable", metadata: ["error": "\(error)", "surface": "import"])
            throw .storage
        }
    }

    /// A refusal's reason without Apple's "Bad request." in front.
    static func reason(_ error: AppStoreAPIError) -> String {
        let prefix = "Bad request. "
        return error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
    }
}

/// Why one step of an import stopped.
enum ImportStepFailure: Error {
    /// The upstream gave no usable answer.
    case fetch(ImportFetchFailure)
    /// The upstream answered something it must not (a hostile or broken upstream).
    case upstream(String)
    /// A token was refused by the posted transactions' rules.
    case refused(String)
    /// The database failed.
    case storage

    func failure(_ transactionID: String) -> ImportFailure {
        switch self {
        case .fetch(let f): ImportFailure(transactionId: transactionID, httpStatus: f.httpStatus, errorCode: f.errorCode, reason: f.reason)
        case .upstream(let reason), .refused(let reason): ImportFailure(transactionId: transactionID, reason: reason)
        case .storage: ImportFailure(transactionId: transactionID, reason: "storage unavailable")
        }
    }
}
