import ReceiptStore

extension AppStoreAPIService {
    /// Get App Transaction Info: the stored app transaction `transactionID` names, byte for byte.
    /// It is found by its own `appTransactionId`, else through the customer of a transaction id
    /// (the `originalTransactionId` family), whose signed transactions carry its
    /// `appTransactionId` (`SignedAppTransaction.linkedIDs`). 4040010 when neither knows the id,
    /// 4040019 when the customer is known and no app transaction of theirs is.
    public func appTransactionInfo(transactionID: String, bundleID: String, environment: String) async -> ServiceAnswer {
        await answer {
            guard TransactionID.isValid(transactionID) else { throw AppStoreAPIError.invalidTransactionID }
            for candidate in self.environments(at: environment) {
                let own = try await self.stored {
                    try await self.store.appTransactions(bundleID: bundleID, environment: candidate, appTransactionIDs: [transactionID])
                }
                if let own = own.first { return Self.appTransactionBody(own) }
            }
            let (customer, scope) = try await self.customer(transactionID, bundleID: bundleID, environment: environment)
            let linked = SignedAppTransaction.linkedIDs(customer.transactions)
            guard !linked.isEmpty else { throw AppStoreAPIError.appTransactionNotFound }
            let found = try await self.stored {
                try await self.store.appTransactions(bundleID: bundleID, environment: scope.environment, appTransactionIDs: linked)
            }
            let byID = Dictionary(found.map { ($0.appTransactionID, $0) }, uniquingKeysWith: { a, _ in a })
            guard let newest = linked.lazy.compactMap({ byID[$0] }).first else { throw AppStoreAPIError.appTransactionNotFound }
            return Self.appTransactionBody(newest)
        }
    }

    /// `AppTransactionInfoResponse`.
    static func appTransactionBody(_ stored: StoredAppTransaction) -> String {
        APIJSON.object(["signedAppTransactionInfo": APIJSON.quoted(stored.jws)])
    }
}
