#if canImport(Foundation)
    import Foundation
    import X509Certificates

    extension TransactionDate {
        /// The instant.
        public var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
    }

    extension TransactionReceipt {
        /// `verify(policy:atSecondsSince1970:linkStore:)` at `time` (rounded down to the second),
        /// or at the purchase date when `time` is nil.
        @discardableResult
        public func verify(
            policy: LegacyTrustPolicy = .appStore, at time: Date? = nil,
            linkStore: (any VerifiedLinkStore)? = nil
        ) throws(TransactionReceiptValidationError) -> VerifiedTransactionReceipt {
            try verify(policy: policy, atSecondsSince1970: time.map { Int64($0.timeIntervalSince1970.rounded(.down)) }, linkStore: linkStore)
        }
    }
#endif
