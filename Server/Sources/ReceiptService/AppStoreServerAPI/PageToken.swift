import Foundation

/// An opaque resume point (history `revision`, refund `revision`, notification
/// `paginationToken`): the sort key of the last item returned, as base64url of
/// `KIND:MILLISECONDS:ID`. A page resumes strictly after it, so items that arrive or change later
/// sort after it and are returned by a later call with the last page's token.
struct PageToken: Sendable, Hashable, Comparable {
    /// `h` history (change time, transaction id), `r` refunds (revocation date, transaction id),
    /// `n` notifications (received time, notificationUUID).
    enum Kind: String, Sendable {
        case history = "h", refunds = "r", notifications = "n"
    }

    let milliseconds: Int64
    let id: String

    /// Order of the sort keys: time, then the id (ids of digits compare as numbers: shorter
    /// first, then byte by byte). The ids are ASCII (digits, a UUID), so their UTF-8 views give
    /// the order without `String`'s character counting and Unicode comparison, which made sorting
    /// a 2,000-transaction customer's history cost 13 ms a request.
    static func < (a: PageToken, b: PageToken) -> Bool {
        if a.milliseconds != b.milliseconds { return a.milliseconds < b.milliseconds }
        let (x, y) = (a.id.utf8, b.id.utf8)
        if x.count != y.count { return x.count < y.count }
        return x.lexicographicallyPrecedes(y)
    }

    /// Before every item.
    static let start = PageToken(milliseconds: Int64.min, id: "")
    /// After every item.
    static let end = PageToken(milliseconds: Int64.max, id: "")

    /// The token's text.
    func encoded(_ kind: Kind) -> String {
        Data("\(kind.rawValue):\(milliseconds):\(id)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A token of `kind` read back; nil for any text this server cannot have written (at most
    /// 512 characters are read): `text` must be the canonical base64url of `KIND:MILLISECONDS:ID`
    /// (`encoded(kind)` of what was read gives `text` again: no `+5`, no leading zeros, no other
    /// base64 of the same bytes), of this kind, and name a point the server issues (`isIssued`).
    ///
    /// Why checking suffices and no signature is needed: a token only names a resume point, it
    /// grants nothing. Every page is read from the caller's own customer (history, refunds) or
    /// app and environment (notifications), so a token of the right form that was never issued
    /// (`h:5:1`) only moves where the page starts, as `startDate` does. What must not pass is
    /// text no instance wrote, so that a client gets Apple's 4000005 or 4000014 for it; a
    /// signature would need a key every instance on one PostgreSQL shares (a storage change),
    /// where these checks hold on every instance alike.
    init?(_ text: String, _ kind: Kind) {
        guard (1 ... 512).contains(text.utf8.count),
            text.utf8.allSatisfy({ b in b.isASCIIAlphanumeric || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") }),
            let token = Self.parse(text, kind), token.isIssued(as: kind), token.encoded(kind) == text
        else { return nil }
        self = token
    }

    /// The parts of a token of `kind`: base64url of UTF-8 `KIND:MILLISECONDS:ID`, the time a
    /// 64-bit integer; nil otherwise (no check of form: `init` compares the re-encoding).
    private static func parse(_ text: String, _ kind: Kind) -> PageToken? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        guard let data = Data(base64Encoded: standard), let decoded = String(data: data, encoding: .utf8) else { return nil }
        let parts = decoded.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == kind.rawValue, let milliseconds = Int64(parts[1]) else { return nil }
        return PageToken(milliseconds: milliseconds, id: String(parts[2]))
    }

    /// Whether the server issues this point in tokens of `kind`: `start` or `end` (an empty
    /// page asked without a token), or a time of years 1970 to 9999 (`NotificationJSON.dateRange`:
    /// every stored date; the server's clock) with the id of an item of that kind, a transaction
    /// id (`TransactionID`: 1 to 32 digits) or a notification's UUID (Apple's `notificationUUID`,
    /// 8-4-4-4-12 hexadecimal digits).
    func isIssued(as kind: Kind) -> Bool {
        if self == .start || self == .end { return true }
        guard NotificationJSON.dateRange.contains(milliseconds) else { return false }
        switch kind {
        case .history, .refunds: return TransactionID.isValid(id)
        case .notifications: return id.utf8.count == 36 && UUID(uuidString: id) != nil
        }
    }

    init(milliseconds: Int64, id: String) {
        self.milliseconds = milliseconds
        self.id = id
    }

    /// The query's `revision` (its first value) read as a token of `kind`; nil when there is none,
    /// 4000005 (invalid revision) when it is not such a token.
    static func revision(in query: [(name: String, value: String)], _ kind: Kind) throws(AppStoreAPIError) -> PageToken? {
        guard let text = query.first(where: { $0.name == "revision" })?.value else { return nil }
        guard let token = PageToken(text, kind) else { throw .invalidRevision }
        return token
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "A") ... UInt8(ascii: "Z")).contains(self)
    }
}

/// One page of at most `size` items after a token, in the order given, and the token to go on.
struct Page<Item> {
    let items: [Item]
    let hasMore: Bool
    let next: PageToken

    /// `sorted` is in the page's order; `key` gives each item's token; `after` (nil: from the
    /// start) and `descending` say where the page begins. An empty page keeps the token it was
    /// asked with, so that a later call still returns only what arrived since.
    init(_ sorted: [Item], after: PageToken?, descending: Bool = false, size: Int, key: (Item) -> PageToken) {
        let remaining: ArraySlice<Item>
        if let after {
            remaining = sorted.drop { descending ? !(key($0) < after) : !(after < key($0)) }
        } else {
            remaining = sorted[...]
        }
        items = Array(remaining.prefix(size))
        hasMore = remaining.count > size
        next = items.last.map(key) ?? after ?? (descending ? .end : .start)
    }
}
