import Foundation

/// Get Transaction History's `HistoryResponse`: the members an import reads.
public struct HistoryResponse: Sendable, Hashable, Decodable {
    /// `signedTransactions`, each token as received.
    public var signedTransactions: [String]
    /// `revision`.
    public var revision: String
    /// `hasMore`.
    public var hasMore: Bool
}

/// Get All Subscription Statuses' `StatusResponse`: the members an import reads.
public struct StatusResponse: Sendable, Hashable, Decodable {
    /// `data`: one item per subscription group.
    public var data: [SubscriptionGroupStatus]
}

/// One item of `StatusResponse.data`.
public struct SubscriptionGroupStatus: Sendable, Hashable, Decodable {
    /// `subscriptionGroupIdentifier`.
    public var subscriptionGroupIdentifier: String?
    /// `lastTransactions`.
    public var lastTransactions: [LastTransaction]
}

/// One `lastTransactions` item.
public struct LastTransaction: Sendable, Hashable, Decodable {
    /// `originalTransactionId`.
    public var originalTransactionId: String
    /// `status` (1 to 5).
    public var status: Int?
    /// `signedTransactionInfo`, as received.
    public var signedTransactionInfo: String
    /// `signedRenewalInfo`, as received.
    public var signedRenewalInfo: String?
}

/// Apple's error body, `{"errorCode": N, "errorMessage": "…"}`: only the code is read (the
/// message is the server's text, never printed).
struct ErrorBody: Decodable {
    var errorCode: Int64
}
