/// One transaction id that `receipt-server import` was asked to import, for one app and
/// environment: the key of its progress.
public struct ImportKey: Sendable, Hashable {
    /// The app.
    public var bundleID: String
    /// `Production` or `Sandbox`.
    public var environment: String
    /// The transaction id as asked (digits).
    public var transactionID: String

    /// The key of `transactionID` of an app in an environment.
    public init(bundleID: String, environment: String, transactionID: String) {
        self.bundleID = bundleID
        self.environment = environment
        self.transactionID = transactionID
    }
}

/// How far an import of one transaction id got (schema version 10, `ImportSchema`).
public struct ImportProgress: Sendable, Hashable {
    /// The revision of the last Get Transaction History page whose transactions are durable: a
    /// re-run asks for the pages after it. Nil before the first page is stored.
    public var revision: String?
    /// When the history and the subscription statuses were all stored (milliseconds since
    /// 1970); nil while the import is incomplete.
    public var completedMilliseconds: Int64?

    /// Progress as recorded or read.
    public init(revision: String?, completedMilliseconds: Int64?) {
        self.revision = revision
        self.completedMilliseconds = completedMilliseconds
    }

    /// Whether the transaction id was imported whole.
    public var isComplete: Bool { completedMilliseconds != nil }
}

/// Where `receipt-server import` records its progress, beside what it imports.
public protocol ImportProgressStore: Sendable {
    /// The recorded progress of `key`; nil when it was never recorded.
    func importProgress(_ key: ImportKey) async throws -> ImportProgress?
    /// Records `progress` for `key` (replacing what was recorded); returns when durable.
    func recordImportProgress(_ key: ImportKey, _ progress: ImportProgress) async throws
}
