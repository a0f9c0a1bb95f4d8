/// A dashboard credential (`receipt-server dashboard-token create`): its public id and the
/// SHA-256 of the whole token (the token itself is shown once and never stored).
public struct DashboardTokenRecord: Sendable, Hashable {
    public var id: String
    public var sha256: [UInt8]
    public var createdMilliseconds: Int64
    public var revokedMilliseconds: Int64?

    /// A record.
    public init(id: String, sha256: [UInt8], createdMilliseconds: Int64, revokedMilliseconds: Int64? = nil) {
        self.id = id
        self.sha256 = sha256
        self.createdMilliseconds = createdMilliseconds
        self.revokedMilliseconds = revokedMilliseconds
    }
}

/// Where dashboard credentials are kept.
public protocol DashboardTokenStore: Sendable {
    /// Every token, revoked ones too, oldest first.
    func dashboardTokens() async throws -> [DashboardTokenRecord]
    /// Adds a token.
    func addDashboardToken(_ token: DashboardTokenRecord) async throws
    /// Marks a token revoked at `milliseconds` (the first date kept); false when no token has that id.
    func revokeDashboardToken(id: String, at milliseconds: Int64) async throws -> Bool
}

/// The SQL of `dashboard_tokens` (`?` placeholders, numbered for PostgreSQL).
enum DashboardTokenStatements {
    static let select = "SELECT token_id, token_sha256, created_ms, revoked_ms FROM dashboard_tokens ORDER BY created_ms, token_id"
    static let insert = "INSERT INTO dashboard_tokens (token_id, token_sha256, created_ms, revoked_ms) VALUES (?, ?, ?, NULL)"
    static let revoke = "UPDATE dashboard_tokens SET revoked_ms = COALESCE(revoked_ms, ?) WHERE token_id = ? RETURNING token_id"
}
