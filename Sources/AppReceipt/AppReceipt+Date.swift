#if canImport(Foundation)
    import Foundation

    // The dates of a receipt and its purchases as `Date`s: the same instants as the
    // `…Milliseconds` values the Foundation-free core keeps.

    extension AppReceipt {
        /// 12 receipt creation date.
        public var creationDate: Date { Date(millisecondsSince1970: creationDateMilliseconds) }
        /// 18 original purchase date.
        public var originalPurchaseDate: Date? { originalPurchaseDateMilliseconds.map(Date.init(millisecondsSince1970:)) }
        /// 21 receipt expiration date (volume purchase program; Xcode writes year 4001).
        public var expirationDate: Date? { expirationDateMilliseconds.map(Date.init(millisecondsSince1970:)) }
    }

    extension AppReceipt.UndocumentedAttributes {
        /// 8: a date (often close to the creation date).
        public var date8: Date? {
            get { date8Milliseconds.map(Date.init(millisecondsSince1970:)) }
            set { date8Milliseconds = newValue?.millisecondsSince1970 }
        }
    }

    extension InAppPurchase {
        /// 1704 purchase date.
        public var purchaseDate: Date { Date(millisecondsSince1970: purchaseDateMilliseconds) }
        /// 1706 original purchase date.
        public var originalPurchaseDate: Date? { originalPurchaseDateMilliseconds.map(Date.init(millisecondsSince1970:)) }
        /// 1708 subscription expiration date.
        public var subscriptionExpirationDate: Date? { subscriptionExpirationDateMilliseconds.map(Date.init(millisecondsSince1970:)) }
        /// 1712 cancellation date (refunds).
        public var cancellationDate: Date? { cancellationDateMilliseconds.map(Date.init(millisecondsSince1970:)) }

        /// Whether the subscription period covers `date`: purchase ≤ date < expiry, not cancelled.
        public func isActive(at date: Date) -> Bool {
            guard cancellationDate == nil, let expiry = subscriptionExpirationDate else { return false }
            return purchaseDate <= date && date < expiry
        }
    }
#endif

#if canImport(Foundation)
    extension AppReceipt {
        /// Whole seconds since 1970 of `date`, rounded down.
        static func floorSeconds(_ date: Date) -> Int64 {
            Int64(date.timeIntervalSince1970.rounded(.down))
        }
    }
#endif
