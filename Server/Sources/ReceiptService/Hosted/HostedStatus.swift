import AppReceipt
import Foundation

/// The statuses of the hosted-validator API beyond Apple's, and the human-readable description
/// every answer carries (the reference's words where it has them, Apple's for Apple's codes).
enum HostedStatus {
    static let valid = 0
    static let unauthorized = 401
    static let forbidden = 403
    static let tooManyRequests = 429
    static let serverFailure = 500

    static let validDescription = "Receipt valid"
    static let unauthorizedDescription = "Authentication is incorrect. Check that the API key and the app token match."
    static let serverFailureDescription = "The server failed (its storage is unavailable). Try again later."
    static let noEncryptionKeyDescription =
        "This app has no encryption key: add it again with --encryption-key, or use /v1/receipt."
    static let tooManyRequestsDescription = "Too many requests for this API key. Retry after the time in Retry-After."

    static func wrongAppDescription(receipt: String, token: String) -> String {
        "The receipt is authentic but belongs to \(receipt), not to the token's app \(token). It may be from a different app."
    }

    static func wrongAppleIDDescription(receipt: Int64?, app: Int64) -> String {
        "The receipt is authentic but names the Apple id \(receipt.map(String.init) ?? "(none)"), not the app's \(app). It may be from a different app."
    }

    /// Apple's description of a `verifyReceipt` status (`../shared/reference/000`), for the
    /// statuses the hosted API passes on.
    static func description(_ status: VerifyStatus) -> String {
        switch status {
        case .valid: return validDescription
        case .unreadableRequest: return "The request body is not a form (application/x-www-form-urlencoded) or a JSON object."
        case .malformedReceipt: return "The data in the receipt property was malformed or missing."
        case .notAuthenticated: return "The receipt could not be authenticated."
        case .sharedSecretMismatch: return "The shared secret does not match the shared secret on file for the app."
        case .subscriptionExpired: return "This receipt is valid but the subscription has expired."
        case .sandboxReceiptAtProduction:
            return "This receipt is from the test environment, but it was sent to the production environment for verification."
        case .productionReceiptAtSandbox:
            return "This receipt is from the production environment, but it was sent to the test environment for verification."
        case .appNotServed: return "This receipt could not be authorized. Treat this the same as if a purchase was never made."
        case .storageUnavailable: return serverFailureDescription
        }
    }

    /// `{"description":…,"status":N}`: an answer without a receipt.
    static func failure(_ status: Int, _ description: String, httpStatus: Int = 200, retryAfter: Int? = nil) -> HostedAnswer {
        let object: [String: Any] = ["status": status, "description": description]
        let json =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            .map { String(decoding: $0, as: UTF8.self) } ?? #"{"status":\#(status)}"#
        return HostedAnswer(httpStatus: httpStatus, status: status, json: json, retryAfter: retryAfter)
    }

    static let busyDescription = "The server is busy. Try again after the time in Retry-After."

    /// 21100 with `"is-retryable": true`: every verification slot is taken (`--max-verifications`).
    static func busy() -> HostedAnswer {
        let object: [String: Any] = ["status": VerifyStatus.storageUnavailable.rawValue, "is-retryable": true, "description": busyDescription]
        let json =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            .map { String(decoding: $0, as: UTF8.self) } ?? #"{"status":21100,"is-retryable":true}"#
        var answer = HostedAnswer(
            httpStatus: 200, status: VerifyStatus.storageUnavailable.rawValue, json: json,
            retryAfter: VerificationLimit.retryAfterSeconds)
        answer.shed = true
        return answer
    }

    /// An authentic receipt's answer in the reference's shape (`../shared/reference/001`): the
    /// `verifyReceipt` answer's members at the top level (`environment`, `receipt` (Apple's
    /// receipt object, `request_date*` inside), `latest_receipt_info`, `latest_receipt`,
    /// `pending_renewal_info`), its `status` (0, or 21006 for an iOS 6 transaction receipt of an
    /// expired subscription) and that status's description first.
    static func valid(verifyReceiptAnswer answer: String) -> (status: Int, json: String) {
        // `ResponseJSON` and `TransactionReceiptAnswer` write `{"status":N,` first.
        let prefix = #"{"status":"#
        guard answer.hasPrefix(prefix), let comma = answer.firstIndex(of: ","),
            let status = Int(answer[answer.index(answer.startIndex, offsetBy: prefix.count) ..< comma])
        else { return (valid, #"{"status":0,"description":"\#(validDescription)"}"#) }
        let description = VerifyStatus(rawValue: status).map(Self.description) ?? validDescription
        return (status, #"{"status":\#(status),"description":"# + ReceiptJSON.quoted(description) + answer[comma...])
    }
}
