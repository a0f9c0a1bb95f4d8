/// Schema version 7: App Store Connect In-App Purchase keys (`receipt-server iapkey`).
/// - `iap_keys`: each key's id (the JWT header's `kid`), its issuer id (the JWT's `iss`), the
///   P-256 public key as a SEC 1 uncompressed point (65 bytes; the private key is never stored),
///   the bundle ids its tokens may name (`IAPKeyColumns.bundleIDs`), created and revoked dates.
enum IAPKeySchema {
    static let migration = Migration(version: 7, name: "iap_keys") { d in
        [
            """
            CREATE TABLE iap_keys (
                key_id TEXT PRIMARY KEY,
                issuer_id TEXT NOT NULL,
                public_key \(d.bytes) NOT NULL,
                bundle_ids TEXT NOT NULL,
                created_ms \(d.int64) NOT NULL,
                revoked_ms \(d.int64)
            )
            """
        ]
    }
}

/// SQL of `iap_keys` (`?` placeholders, numbered for PostgreSQL) and its column encodings.
enum IAPKeyColumns {
    static let select = "SELECT key_id, issuer_id, public_key, bundle_ids, created_ms, revoked_ms FROM iap_keys ORDER BY created_ms, key_id"
    /// Adds a key or replaces every column of the key of the same id (which un-revokes it).
    static let put = """
        INSERT INTO iap_keys (key_id, issuer_id, public_key, bundle_ids, created_ms, revoked_ms) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (key_id) DO UPDATE SET issuer_id = excluded.issuer_id, public_key = excluded.public_key,
            bundle_ids = excluded.bundle_ids, created_ms = excluded.created_ms, revoked_ms = excluded.revoked_ms
        """
    /// Revokes a key; the first revocation date is kept.
    static let revoke = "UPDATE iap_keys SET revoked_ms = COALESCE(revoked_ms, ?) WHERE key_id = ? RETURNING key_id"

    /// `bundle_ids`: the bundle ids joined by line feeds, which no bundle id contains (the empty
    /// text is the empty list: every app).
    static func bundleIDs(_ ids: [String]) -> String {
        ids.joined(separator: "\n")
    }

    /// The bundle ids of a `bundle_ids` column.
    static func bundleIDs(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A key from its columns.
    static func record(
        keyID: String, issuerID: String, publicKey: [UInt8], bundleIDs text: String, created: Int64, revoked: Int64?
    ) -> IAPKeyRecord {
        IAPKeyRecord(
            keyID: keyID, issuerID: issuerID, publicKey: publicKey, bundleIDs: bundleIDs(text), createdMilliseconds: created,
            revokedMilliseconds: revoked)
    }
}
