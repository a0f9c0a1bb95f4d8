/// An App Store Server API error as Apple answers it (DESIGN §13): an HTTP status and the body
/// `{"errorCode": N, "errorMessage": "…"}`, sent with `Content-Type: application/json` exactly
/// (Apple's Python client reads the body only then).
public struct AppStoreAPIError: Error, Sendable, Hashable {
    /// 400, 404, 429 or 500.
    public let httpStatus: Int
    /// Apple's `errorCode`.
    public let code: Int64
    /// Apple's `errorMessage`.
    public let message: String

    init(_ httpStatus: Int, _ code: Int64, _ message: String) {
        self.httpStatus = httpStatus
        self.code = code
        self.message = message
    }

    /// The answer's body.
    public var json: String {
        #"{"errorCode":\#(code),"errorMessage":\#(APIJSON.quoted(message))}"#
    }

    /// Apple's error of that name.
    public static let generalBadRequest = AppStoreAPIError(400, 4_000_000, "Bad request.")
    /// Apple's error of that name.
    public static let invalidRevision = AppStoreAPIError(400, 4_000_005, "Invalid request revision.")
    /// Apple's error of that name.
    public static let invalidTransactionID = AppStoreAPIError(400, 4_000_006, "Invalid transaction id.")
    /// Apple's error of that name.
    public static let invalidDateRange = AppStoreAPIError(
        400, 4_000_013, "Invalid request. The end date precedes the start date or the dates are the same.")
    /// Apple's error of that name.
    public static let invalidPaginationToken = AppStoreAPIError(400, 4_000_014, "Invalid request. The pagination token is invalid.")
    /// Apple's error of that name.
    public static let invalidStartDate = AppStoreAPIError(
        400, 4_000_015, "Invalid request. The start date is not a timestamp value represented in milliseconds.")
    /// Apple's error of that name.
    public static let invalidEndDate = AppStoreAPIError(
        400, 4_000_016, "Invalid request. The end date is not a timestamp value represented in milliseconds.")
    /// Apple's error of that name.
    public static let invalidNotificationType = AppStoreAPIError(400, 4_000_018, "Invalid request. The notification type or subtype is invalid.")
    /// Apple's error of that name.
    public static let transactionIDAndNotificationType = AppStoreAPIError(
        400, 4_000_019, "Invalid request. Supply either a transaction id or a notification type, but not both.")
    /// Apple's error of that name.
    public static let invalidSort = AppStoreAPIError(400, 4_000_021, "Invalid request. The sort parameter is invalid.")
    /// Apple's error of that name.
    public static let invalidProductType = AppStoreAPIError(400, 4_000_022, "Invalid request. The product type parameter is invalid.")
    /// Apple's error of that name.
    public static let invalidOwnershipType = AppStoreAPIError(400, 4_000_026, "Invalid request. The in-app ownership type parameter is invalid.")
    /// Apple's error of that name.
    public static let invalidRevoked = AppStoreAPIError(400, 4_000_030, "Invalid request. The revoked parameter is invalid.")
    /// Apple's error of that name.
    public static let invalidStatus = AppStoreAPIError(400, 4_000_031, "Invalid request. The status parameter is invalid.")
    /// Apple's error of that name.
    public static let transactionNotFound = AppStoreAPIError(404, 4_040_010, "Transaction id not found.")
    /// Apple's error of that name (`AppTransactionDoesNotExistError`): the customer is known, no
    /// app transaction of theirs is.
    public static let appTransactionNotFound = AppStoreAPIError(404, 4_040_019, "No AppTransaction exists for the customer.")
    /// Answered with `Retry-After`.
    /// Apple's error of that name.
    public static let rateLimited = AppStoreAPIError(429, 4_290_000, "Rate limit exceeded.")
    /// Apple's error of that name.
    public static let unknown = AppStoreAPIError(500, 5_000_001, "An unknown error occurred. Please try again.")
    /// Apple's retryable error, as 503: a posted token's certificate status could not be had
    /// from its OCSP responder (`--revocation ocsp`).
    public static let revocationUnavailable = AppStoreAPIError(503, 5_000_001, "An unknown error occurred. Please try again.")

    /// 4000000 with the reason a posted token was refused (one line, never the token).
    static func badRequest(_ reason: String) -> AppStoreAPIError {
        AppStoreAPIError(400, 4_000_000, "Bad request. " + reason)
    }
}

extension AppStoreAPIError {
    /// The error as answered: its HTTP status and body, with `Retry-After` when given.
    public func answer(retryAfter: Int? = nil) -> ServiceAnswer {
        ServiceAnswer(httpStatus: httpStatus, json, retryAfter: retryAfter)
    }
}
