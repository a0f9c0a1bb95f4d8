/// An app's entitlement (`receipt-server entitlement set`): a name the app uses, and the products
/// that grant it.
public struct EntitlementDefinition: Sendable, Hashable {
    /// The app's name for it (`premium`).
    public var name: String
    /// The product ids that grant it, sorted.
    public var productIDs: [String]

    /// A definition.
    public init(name: String, productIDs: [String]) {
        self.name = name
        self.productIDs = productIDs
    }
}

/// Entitlements (DESIGN §18): the app's definitions, and what is stored of one of its users, the
/// `appAccountToken` its back end gives.
public protocol EntitlementStore: Sendable {
    /// The app's entitlements, by name.
    func entitlements(bundleID: String) async throws -> [EntitlementDefinition]
    /// Replaces the products of `name` (creating it).
    func setEntitlement(bundleID: String, _ definition: EntitlementDefinition) async throws
    /// Removes `name`; false when the app has no such entitlement.
    func removeEntitlement(bundleID: String, name: String) async throws -> Bool
    /// The signed transactions of every original transaction one of whose transactions carries
    /// `appAccountToken`, and their renewal infos (empty when none does).
    func account(bundleID: String, environment: String, appAccountToken: String) async throws -> CustomerRecords
}

/// The SQL of entitlements, for both backends (`?` placeholders, numbered for PostgreSQL).
enum EntitlementStatements {
    /// How many of a user's transactions one account read looks at (their original ids, each
    /// once, are then read whole).
    static let maxRows = SignedDataStatements.maxCustomerRows

    static let select = "SELECT name, product_id FROM entitlements WHERE bundle_id = ? ORDER BY name, product_id"
    static let delete = "DELETE FROM entitlements WHERE bundle_id = ? AND name = ? RETURNING name"
    static let insert = "INSERT INTO entitlements (bundle_id, name, product_id) VALUES (?, ?, ?)"

    /// The original transaction ids of a user's token's transactions, one per transaction (by
    /// `notification_transactions_by_token`: without DISTINCT, which would make SQLite walk the
    /// app's transactions in original-id order instead); `originalIDs(_:)` keeps each once.
    static func originals(bundleID: String, environment: String, token: String, _ d: SQLDialect) -> SQLStatement {
        SQLStatement(
            d,
            """
            SELECT original_transaction_id FROM notification_transactions \
            WHERE bundle_id = ? AND environment = ? AND app_account_token = ? AND signed_transaction IS NOT NULL LIMIT ?
            """, .text(bundleID), .text(environment), .text(token), .integer(Int64(maxRows)))
    }

    /// Each original transaction id once, sorted.
    static func originalIDs(_ ids: [String]) -> [String] {
        Array(Set(ids)).sorted()
    }

    /// Definitions from (name, product id) rows in order.
    static func definitions(_ rows: [(String, String)]) -> [EntitlementDefinition] {
        var definitions: [EntitlementDefinition] = []
        for (name, product) in rows {
            if definitions.last?.name == name {
                definitions[definitions.count - 1].productIDs.append(product)
            } else {
                definitions.append(EntitlementDefinition(name: name, productIDs: [product]))
            }
        }
        return definitions
    }
}
