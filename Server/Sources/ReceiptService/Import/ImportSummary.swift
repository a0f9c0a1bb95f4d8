import Foundation

/// What `receipt-server import` prints: one JSON object.
public struct ImportSummary: Sendable, Hashable, Encodable {
    /// Distinct transaction ids asked about.
    public var requested = 0
    /// Imported whole by this run.
    public var imported = 0
    /// Complete already (an earlier run): nothing asked of the upstream.
    public var skipped = 0
    /// Not imported whole (`failures` says why).
    public var failed = 0
    /// Signed transactions verified and stored by this run (distinct per transaction id asked).
    public var transactions = 0
    /// Renewal infos verified and stored by this run.
    public var renewals = 0
    /// Each failure, in the order the ids were given.
    public var failures: [ImportFailure] = []

    /// An empty summary of `requested` ids.
    public init(requested: Int = 0) {
        self.requested = requested
    }

    /// Ids done so far.
    public var done: Int { imported + skipped + failed }

    /// Adds one id's outcome.
    public mutating func add(_ outcome: ImportOutcome) {
        switch outcome {
        case .imported(let transactions, let renewals):
            imported += 1
            self.transactions += transactions
            self.renewals += renewals
        case .skipped: skipped += 1
        case .failed(let failure):
            failed += 1
            failures.append(failure)
        }
    }

    /// The summary as one line of JSON (keys sorted).
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

extension ImportService {
    /// Imports `transactionIDs` (each once, in order), `limits.concurrency` at a time; `progress`
    /// sees the summary after each id. Failures are listed in the order the ids were given.
    public func run(_ transactionIDs: [String], progress: @Sendable (ImportSummary) -> Void = { _ in }) async -> ImportSummary {
        var seen = Set<String>()
        let ids = transactionIDs.filter { seen.insert($0).inserted }
        var summary = ImportSummary(requested: ids.count)
        var failures: [(Int, ImportFailure)] = []
        progress(summary)
        await withTaskGroup(of: (Int, ImportOutcome).self) { group in
            var next = 0
            func start() {
                guard next < ids.count else { return }
                let (index, id) = (next, ids[next])
                group.addTask { (index, await self.importCustomer(id)) }
                next += 1
            }
            for _ in 0 ..< max(1, limits.concurrency) { start() }
            while let (index, outcome) = await group.next() {
                if case .failed(let failure) = outcome { failures.append((index, failure)) }
                summary.add(outcome)
                progress(summary)
                start()
            }
        }
        summary.failures = failures.sorted { $0.0 < $1.0 }.map(\.1)
        return summary
    }
}
