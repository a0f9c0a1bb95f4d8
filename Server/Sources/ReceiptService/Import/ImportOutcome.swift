/// What importing one transaction id came to.
public enum ImportOutcome: Sendable, Hashable {
    /// Its history and subscription statuses are now stored: `transactions` distinct signed
    /// transactions and `renewals` renewal infos were verified and stored (some may have been
    /// stored already: storage keeps each once).
    case imported(transactions: Int, renewals: Int)
    /// A run before this one completed it: nothing was asked of the upstream.
    case skipped
    /// It was not imported whole (what was stored stays, and a re-run resumes after it).
    case failed(ImportFailure)
}

/// One transaction id that was not imported whole, as the summary lists it.
public struct ImportFailure: Sendable, Hashable, Encodable {
    /// The transaction id as asked.
    public var transactionId: String
    /// The upstream's last HTTP status, when the failure was an upstream answer.
    public var httpStatus: Int?
    /// Apple's `errorCode` of that answer, when it had one.
    public var errorCode: Int64?
    /// One line, never a token.
    public var reason: String

    /// A failure of `transactionId`.
    public init(transactionId: String, httpStatus: Int? = nil, errorCode: Int64? = nil, reason: String) {
        self.transactionId = transactionId
        self.httpStatus = httpStatus
        self.errorCode = errorCode
        self.reason = reason
    }
}

/// Bounds an import keeps whatever the upstream answers.
public struct ImportLimits: Sendable, Hashable {
    /// History pages read for one transaction id at most (Apple's pages hold 20 transactions).
    public var maxPages: Int
    /// The longest `revision` kept (it is stored, and sent back).
    public var maxRevisionBytes: Int
    /// Transaction ids imported at once.
    public var concurrency: Int

    /// The defaults: 500 pages (10,000 transactions, the most a customer read returns), revisions
    /// of 1 KiB, 4 at once.
    public init(maxPages: Int = 500, maxRevisionBytes: Int = 1024, concurrency: Int = 4) {
        self.maxPages = maxPages
        self.maxRevisionBytes = maxRevisionBytes
        self.concurrency = concurrency
    }
}
