/// One page of Get Transaction History as an import reads it.
public struct ImportHistoryPage: Sendable, Hashable {
    /// `signedTransactions`, each token as received.
    public var signedTransactions: [String]
    /// `revision`: where the next page (or a later run) resumes.
    public var revision: String
    /// `hasMore`.
    public var hasMore: Bool

    /// A page as read.
    public init(signedTransactions: [String], revision: String, hasMore: Bool) {
        self.signedTransactions = signedTransactions
        self.revision = revision
        self.hasMore = hasMore
    }
}

/// One `lastTransactions` entry of Get All Subscription Statuses as an import reads it.
public struct ImportStatusEntry: Sendable, Hashable {
    /// `originalTransactionId`.
    public var originalTransactionID: String
    /// `signedTransactionInfo`, as received.
    public var signedTransactionInfo: String
    /// `signedRenewalInfo`, as received, when the entry has one.
    public var signedRenewalInfo: String?

    /// An entry as read.
    public init(originalTransactionID: String, signedTransactionInfo: String, signedRenewalInfo: String?) {
        self.originalTransactionID = originalTransactionID
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}

/// Why an upstream call gave nothing to import: a refusal (an HTTP status other than 200 once the
/// retries were spent), no answer at all (timeouts, connections), or an answer that is not
/// Apple's shape. `reason` is one line and never holds a token or a key.
public struct ImportFetchFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The last HTTP status answered, when there was one.
    public var httpStatus: Int?
    /// Apple's `errorCode` of an error body, when it had one.
    public var errorCode: Int64?
    /// One line.
    public var reason: String

    /// A failure as the source saw it.
    public init(httpStatus: Int?, errorCode: Int64?, reason: String) {
        self.httpStatus = httpStatus
        self.errorCode = errorCode
        self.reason = reason
    }

    public var description: String { reason }
}

/// The App Store Server API an import reads from: Apple's, or another receipt-server's (the
/// client with its retries and bounds lives in the executable's `AppStoreServerClient` module;
/// this service sees only these two calls).
public protocol ImportSource: Sendable {
    /// Get Transaction History (v2) of `transactionID`: the page after `revision` (the first
    /// page when nil).
    func history(transactionID: String, revision: String?) async throws(ImportFetchFailure) -> ImportHistoryPage
    /// Get All Subscription Statuses of `transactionID`: every `lastTransactions` entry of every group.
    func subscriptionStatuses(transactionID: String) async throws(ImportFetchFailure) -> [ImportStatusEntry]
}
