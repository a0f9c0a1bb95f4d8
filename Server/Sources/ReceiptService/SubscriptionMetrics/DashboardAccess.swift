import Foundation
import ReceiptStore

/// Who may read the dashboard (`/dashboard`): the holder of a dashboard token the operator
/// created (`receipt-server dashboard-token create`), not revoked. Tokens are `Credential`s of
/// kind `.dashboard` (`dsh_ID_SECRET`, 256 random bits): storage keeps the id and the SHA-256 of
/// the whole token, compared in constant time.
public struct DashboardAccess: Sendable {
    let store: any DashboardTokenStore

    /// Access checked against the tokens in `store`.
    public init(store: any DashboardTokenStore) {
        self.store = store
    }

    /// What a presented token is worth.
    public enum Decision: Sendable, Equatable {
        case admitted, refused, storageUnavailable
    }

    /// Whether `text` is a dashboard token the store holds, unrevoked. A text of another shape is
    /// refused before any storage is read.
    public func decide(_ text: String?) async -> Decision {
        guard let text, let credential = Credential(text, kind: .dashboard) else { return .refused }
        do {
            guard let record = try await store.dashboardTokens().first(where: { $0.id == credential.id }),
                record.revokedMilliseconds == nil, credential.matches(record.sha256)
            else { return .refused }
            return .admitted
        } catch {
            return .storageUnavailable
        }
    }

    /// A new token, shown once; only its id and hash are stored.
    public func create(now: Date = Date()) async throws -> (token: String, record: DashboardTokenRecord) {
        let token = Credential.generate(.dashboard)
        let record = DashboardTokenRecord(id: token.id, sha256: token.sha256, createdMilliseconds: now.millisecondsSince1970)
        try await store.addDashboardToken(record)
        return (token.text, record)
    }

    /// Revokes the token given as its text or its id; false when there is no such token.
    public func revoke(_ tokenOrID: String, now: Date = Date()) async throws -> Bool {
        let id = Credential(tokenOrID, kind: .dashboard)?.id ?? tokenOrID
        return try await store.revokeDashboardToken(id: id, at: now.millisecondsSince1970)
    }
}
