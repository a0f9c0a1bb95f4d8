/// The customer of a transaction id (DESIGN §13) read as steps, so that a backend can run them in
/// one read (SQLite) or on one connection (PostgreSQL), one SQL text for both:
///
/// 1. the signed transactions of the id's originals (`transactionsOfOriginalsOf`);
/// 2. while those rows hold app account tokens not followed yet: the originals holding them
///    (`originalsWith`), then the signed transactions of the originals new among them
///    (`transactionsOf`); at most `maxLinkRounds` rounds, `maxCustomerRows` originals and
///    `maxCustomerRows` transactions;
/// 3. the renewal infos of every original linked (`renewals`).
///
/// A customer without an app account token, the usual case, is two statements.
struct CustomerLinking {
    /// A statement to run and how its rows come back.
    enum Step {
        /// Rows as `SignedDataStatements.transaction(_:)` reads them: give them to `take(transactions:)`.
        case transactions(SQLStatement)
        /// One text column of original transaction ids: give them to `take(originals:)`.
        case originals(SQLStatement)
    }

    private let bundleID: String, environment: String, dialect: SQLDialect
    /// The statement to run next; nil when the linking is done.
    private(set) var next: Step?
    /// The signed transactions read so far.
    private(set) var transactions: [StoredSignedTransaction] = []
    /// The original transaction ids linked so far, in the order they were found.
    private(set) var originals: [String] = []
    private var seen = Set<String>(), tokensSeen = Set<String>()
    private var rounds = 0

    init(of transactionID: String, bundleID: String, environment: String, _ d: SQLDialect) {
        (self.bundleID, self.environment, dialect) = (bundleID, environment, d)
        next = .transactions(SignedDataStatements.transactionsOfOriginalsOf(transactionID, bundleID: bundleID, environment: environment, d))
    }

    /// The renewal infos of the customer's originals, once the linking is done; nil when no
    /// signed transaction has the id (nor has it as its original): there is no customer.
    var renewals: SQLStatement? {
        guard next == nil, !originals.isEmpty else { return nil }
        return SignedDataStatements.renewalsOf(originals, bundleID: bundleID, environment: environment, dialect)
    }

    /// Takes the rows of a `.transactions` step: their originals (new ones, on the first step)
    /// and the tokens they hold that were not followed yet.
    mutating func take(transactions rows: [StoredSignedTransaction]) {
        transactions += rows.prefix(SignedDataStatements.maxCustomerRows - transactions.count)
        if originals.isEmpty {   // the first step: the id's own originals
            originals = rows.map(\.originalTransactionID).filter { seen.insert($0).inserted }
        }
        let tokens = rows.compactMap(\.facts.appAccountToken).filter { !$0.isEmpty && tokensSeen.insert($0).inserted }
        guard !tokens.isEmpty, rounds < SignedDataStatements.maxLinkRounds, originals.count < SignedDataStatements.maxCustomerRows,
            transactions.count < SignedDataStatements.maxCustomerRows
        else {
            next = nil
            return
        }
        next = .originals(SignedDataStatements.originalsWith(tokens.sorted(), bundleID: bundleID, environment: environment, dialect))
    }

    /// Takes the rows of an `.originals` step: the originals not linked yet join the customer,
    /// and their transactions are read next.
    mutating func take(originals rows: [String]) {
        rounds += 1
        let new = Array(rows.filter { seen.insert($0).inserted }.prefix(SignedDataStatements.maxCustomerRows - originals.count))
        guard !new.isEmpty else {
            next = nil
            return
        }
        originals += new
        let limit = SignedDataStatements.maxCustomerRows - transactions.count
        next = .transactions(SignedDataStatements.transactionsOf(new, limit: limit, bundleID: bundleID, environment: environment, dialect))
    }
}
