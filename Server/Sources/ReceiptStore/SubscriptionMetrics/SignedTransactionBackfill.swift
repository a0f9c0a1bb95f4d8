import Foundation

/// The data step of the entitlements and metrics migration (`Migration.Rewrite.signedTransactionFacts`):
/// signed transactions stored before it hold their JWS but not the new columns, which are read
/// from the token's payload. The token was verified when it was stored (DESIGN §11); only its
/// payload is read here, never trusted beyond what storing it already trusted.
enum SignedTransactionBackfill {
    /// Rows read per step (keyset order by key), so that a large table is never held at once.
    static let batch = 1_000

    /// The next rows still to fill, after the key `after` (nil: from the start).
    static func next(after key: (String, String, String)?, _ d: SQLDialect) -> SQLStatement {
        var statement = SQLStatement(
            d,
            "SELECT bundle_id, environment, transaction_id, signed_transaction FROM notification_transactions WHERE signed_transaction IS NOT NULL")
        if let key {
            statement.append(
                " AND (bundle_id > ? OR (bundle_id = ? AND (environment > ? OR (environment = ? AND transaction_id > ?))))",
                .text(key.0), .text(key.0), .text(key.1), .text(key.1), .text(key.2))
        }
        let order = d == .postgres ? #" COLLATE "C""# : ""
        statement.append(
            " ORDER BY bundle_id\(order), environment\(order), transaction_id\(order) LIMIT ?", .integer(Int64(batch)))
        return statement
    }

    /// The values the row gets: price, currency, transaction reason, offer discount type.
    static func update(_ facts: Facts, key: (String, String, String), _ d: SQLDialect) -> SQLStatement {
        SQLStatement(
            d,
            """
            UPDATE notification_transactions SET price = ?, currency = ?, transaction_reason = ?, offer_discount_type = ? \
            WHERE bundle_id = ? AND environment = ? AND transaction_id = ?
            """, .integer(facts.price), .text(facts.currency), .text(facts.transactionReason), .text(facts.offerDiscountType),
            .text(key.0), .text(key.1), .text(key.2))
    }

    /// What the metrics read of a transaction payload.
    struct Facts: Equatable {
        var price: Int64?
        var currency: String?
        var transactionReason: String?
        var offerDiscountType: String?
    }

    /// The facts of a compact JWS's payload (RFC 7515 §7.1: base64url without padding); all nil
    /// when the payload cannot be read.
    static func facts(_ jws: String) -> Facts {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = base64URL(parts[1]),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return Facts() }
        return Facts(
            price: (object["price"] as? NSNumber).flatMap { Int64(exactly: $0.doubleValue) },
            currency: object["currency"] as? String, transactionReason: object["transactionReason"] as? String,
            offerDiscountType: object["offerDiscountType"] as? String)
    }

    static func base64URL(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
