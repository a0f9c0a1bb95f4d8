/// `verifyReceipt` status codes this server answers (Apple's table, `../shared/reference/000`).
public enum VerifyStatus: Int, Sendable, CaseIterable {
    /// Whether the answer carries the receipt: 0, and 21006 for an expired subscription's
    /// transaction receipt.
    public var isAnswered: Bool { self == .valid || self == .subscriptionExpired }

    /// Valid.
    case valid = 0
    /// The body is not a JSON object (or the method is not POST).
    case unreadableRequest = 21000
    /// `receipt-data` is missing, not base64, or not a receipt.
    case malformedReceipt = 21002
    /// The receipt could not be authenticated (signature, chain, Apple's rules).
    case notAuthenticated = 21003
    /// The app has a shared secret and the password is missing or differs.
    case sharedSecretMismatch = 21004
    /// A transaction receipt (iOS 6 style) of an auto-renewable subscription whose latest known
    /// renewal has expired: the receipt is valid, decoded and returned with
    /// `latest_expired_receipt_info`.
    case subscriptionExpired = 21006
    /// A sandbox receipt sent to the production endpoint.
    case sandboxReceiptAtProduction = 21007
    /// A production receipt sent to the sandbox endpoint.
    case productionReceiptAtSandbox = 21008
    /// The receipt's app is not served here.
    case appNotServed = 21010
    /// Storage is unavailable, or (`--revocation ocsp`) no OCSP answer could be had; the answer
    /// carries `"is-retryable": true`.
    case storageUnavailable = 21100
}

/// The two `verifyReceipt` endpoints.
public enum VerifyEndpoint: String, Sendable, CaseIterable {
    /// `POST /verifyReceipt`.
    case production
    /// `POST /sandbox/verifyReceipt`.
    case sandbox

    /// The URL path.
    public var path: String {
        switch self {
        case .production: return "/verifyReceipt"
        case .sandbox: return "/sandbox/verifyReceipt"
        }
    }
}
