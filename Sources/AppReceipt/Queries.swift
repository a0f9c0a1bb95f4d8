#if canImport(Foundation)
    import Foundation

    extension AppReceipt {
        /// Purchases of `productIdentifier`, newest purchase first.
        public func purchases(of productIdentifier: String) -> [InAppPurchase] {
            inAppPurchases.filter { $0.isProduct(productIdentifier) }.sorted { $0.purchaseDate > $1.purchaseDate }
        }

        /// Whether `productIdentifier` was ever bought (refunded purchases included; see
        /// `cancelledPurchases`).
        public func containsPurchase(of productIdentifier: String) -> Bool {
            inAppPurchases.contains { $0.isProduct(productIdentifier) }
        }

        /// The auto-renewable subscription purchase of `productIdentifier` (any product when `nil`)
        /// active at `date` (purchase ≤ date < expiry, not cancelled); the one expiring last when
        /// several periods overlap.
        public func activeAutoRenewableSubscription(_ productIdentifier: String? = nil, at date: Date) -> InAppPurchase? {
            inAppPurchases
                .filter { (productIdentifier == nil || $0.isProduct(productIdentifier!)) && $0.isActive(at: date) }
                .max { $0.subscriptionExpirationDate! < $1.subscriptionExpirationDate! }
        }

        /// The latest subscription expiry per product, cancelled periods excluded.
        public func latestExpirationDates() -> [String: Date] {
            var latest: [String: Date] = [:]
            for purchase in inAppPurchases where purchase.cancellationDate == nil {
                guard let expiry = purchase.subscriptionExpirationDate else { continue }
                if let known = latest[purchase.productIdentifier], known >= expiry { continue }
                latest[purchase.productIdentifier] = expiry
            }
            return latest
        }

        /// Purchases Apple refunded or revoked (they carry a cancellation date), newest cancellation first.
        public func cancelledPurchases() -> [InAppPurchase] {
            inAppPurchases.filter { $0.cancellationDate != nil }.sorted { $0.cancellationDate! > $1.cancellationDate! }
        }
    }
#endif
