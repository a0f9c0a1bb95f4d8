import Logging
import ReceiptStore

/// `GET /inApps/v1/entitlements/{appAccountToken}` (DESIGN §18): what one user of the caller's
/// app may use now. The user is the `appAccountToken` the app's back end gives (its own user id):
/// the one question that groups transactions by it (DESIGN §13).
public struct EntitlementsService: Sendable {
    let store: any EntitlementStore
    let logger: Logger
    let clock: @Sendable () -> Int64

    /// Entitlements read from `store`, statuses at `clock` (milliseconds since 1970).
    public init(store: any EntitlementStore, logger: Logger, clock: @escaping @Sendable () -> Int64 = EpochMilliseconds.now) {
        self.store = store
        self.logger = logger
        self.clock = clock
    }

    /// The answer: 200 with the entitlements (an empty list for a token nothing carries), 400 when
    /// the token is not a UUID, 500 when storage fails.
    public func entitlements(appAccountToken: String, bundleID: String, environment: String) async -> ServiceAnswer {
        guard let token = AppAccountToken.canonical(appAccountToken) else {
            return AppStoreAPIError.badRequest("The appAccountToken is not a UUID.").answer()
        }
        do {
            let entitlements = try await self.entitlements(token, bundleID: bundleID, environment: environment, at: clock())
            return ServiceAnswer(EntitlementsJSON.body(appAccountToken: token, bundleID: bundleID, environment: environment, entitlements))
        } catch {
            logger.error("entitlements not read", metadata: ["error": "\(error)", "surface": "entitlements"])
            return AppStoreAPIError.unknown.answer()
        }
    }

    /// The entitlements of `token` (canonical) at `time`.
    public func entitlements(_ token: String, bundleID: String, environment: String, at time: Int64) async throws -> [Entitlement] {
        let definitions = try await store.entitlements(bundleID: bundleID)
        guard !definitions.isEmpty else { return [] }
        let account = try await store.account(bundleID: bundleID, environment: environment, appAccountToken: token)
        return Entitlement.granted(by: definitions, account, at: time)
    }
}

/// An `appAccountToken`: a UUID (RFC 9562 §4: 8-4-4-4-12 hexadecimal digits), which Apple signs
/// in lower case.
public enum AppAccountToken {
    /// `text` in lower case when it is a UUID's text, else nil.
    public static func canonical(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                guard byte.isHexDigit else { return nil }
            }
        }
        return text.lowercased()
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a") ... UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A") ... UInt8(ascii: "F")).contains(self)
    }
}

/// The entitlements body: `{"appAccountToken", "environment", "bundleId", "entitlements": [{"name",
/// "active", "productId", "originalTransactionId", "expiresDate", "status", "willAutoRenew"}]}`,
/// unknown values as `null`.
public enum EntitlementsJSON {
    /// The body for `entitlements`.
    public static func body(appAccountToken: String, bundleID: String, environment: String, _ entitlements: [Entitlement]) -> String {
        APIJSON.object([
            "appAccountToken": APIJSON.quoted(appAccountToken), "environment": APIJSON.quoted(environment),
            "bundleId": APIJSON.quoted(bundleID), "entitlements": APIJSON.array(entitlements.map(entry)),
        ])
    }

    static func entry(_ e: Entitlement) -> String {
        APIJSON.object([
            "name": APIJSON.quoted(e.name), "active": APIJSON.bool(e.active), "productId": APIJSON.quoted(e.productID),
            "originalTransactionId": APIJSON.quoted(e.originalTransactionID), "expiresDate": e.expiresMilliseconds.map(String.init) ?? "null",
            "status": e.status.map(String.init) ?? "null", "willAutoRenew": e.willAutoRenew.map(APIJSON.bool) ?? "null",
        ])
    }
}
