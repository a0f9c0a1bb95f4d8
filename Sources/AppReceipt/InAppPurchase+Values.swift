extension InAppPurchase {
    /// The decoded fields, plain values only: dates as milliseconds, optionals as presence bits.
    struct Values: Sendable {
        var purchase: Int64 = 0
        var originalPurchase: Int64 = 0
        var expiration: Int64 = 0
        var cancellation: Int64 = 0
        var quantity: Int64 = 0
        var productType: Int64 = 0
        var webOrderLineItem: Int64 = 0
        var product = TextSpan.empty
        var transaction = TextSpan.empty
        var originalTransaction = TextSpan.empty
        var promotionalOffer = TextSpan.empty
        var firstAttribute: UInt32 = 0
        var attributeCount: UInt32 = 0
        /// Which fields were present, by `Field`, and the two flags' values.
        var present: UInt32 = 0
        var flagValues: UInt8 = 0

        /// Fields by their attribute type; the bit is `type - 1701`.
        enum Field: Int {
            case quantity = 1701, product, transaction, purchase, originalTransaction, originalPurchase, productType,
                expiration, webOrderLineItem = 1711, cancellation, trialPeriod, introOfferPeriod = 1719, promotionalOffer = 1721
            @inline(__always) var bit: UInt32 { 1 << UInt32(rawValue - 1701) }
        }

        func has(_ field: Field) -> Bool { present & field.bit != 0 }

        func integer(_ field: Field) -> Int64? {
            guard has(field) else { return nil }
            switch field {
            case .quantity: return quantity
            case .productType: return productType
            default: return webOrderLineItem
            }
        }

        func milliseconds(_ field: Field) -> Int64? {
            guard has(field) else { return nil }
            switch field {
            case .originalPurchase: return originalPurchase
            case .expiration: return expiration
            default: return cancellation
            }
        }

        func flag(_ field: Field) -> Bool? {
            guard has(field) else { return nil }
            return flagValues & (field == .trialPeriod ? 1 : 2) != 0
        }

        /// The non-text fields (and presence) agree.
        func sameNumbers(as other: Values) -> Bool {
            present == other.present && flagValues == other.flagValues && purchase == other.purchase
                && (!has(.originalPurchase) || originalPurchase == other.originalPurchase)
                && (!has(.expiration) || expiration == other.expiration)
                && (!has(.cancellation) || cancellation == other.cancellation)
                && (!has(.quantity) || quantity == other.quantity)
                && (!has(.productType) || productType == other.productType)
                && (!has(.webOrderLineItem) || webOrderLineItem == other.webOrderLineItem)
        }

        /// The bits of the documented fields (types 1701–1708, 1711–1713, 1719, 1721).
        static var documented: UInt32 { 0b1_0100_0001_1100_1111_1111 }

        /// Reads one attribute of the purchase's SET; documented fields at most once each.
        @inline(__always)
        mutating func read(
            _ attribute: ReceiptAttribute, _ payload: UnsafeRawBufferPointer,
            joined: inout [UInt8]
        ) throws(ReceiptError) {
            let index = attribute.type &- 1701
            guard index >= 0, index < 32, Self.documented & (1 << UInt32(index)) != 0 else { return }   // 1709, 1710, 1714–1718: raw only
            let bit = UInt32(1) << UInt32(index)
            // A documented field twice would make every answer ambiguous.
            guard present & bit == 0 else { throw .duplicateAttribute(type: attribute.type, offset: attribute.offset) }
            present |= bit
            let value = AttributeValue(bytes: payload, attribute: attribute)
            var found = true
            switch attribute.type {
            case 1701: quantity = try value.integer()
            case 1702: found = try set(&product, value.utf8Text(joined: &joined))
            case 1703: found = try set(&transaction, value.utf8Text(joined: &joined))
            case 1704: found = try set(&purchase, value.milliseconds())
            case 1705: found = try set(&originalTransaction, value.utf8Text(joined: &joined))
            case 1706: found = try set(&originalPurchase, value.milliseconds())
            case 1707: productType = try value.integer()
            case 1708: found = try set(&expiration, value.milliseconds())
            case 1711: webOrderLineItem = try value.integer()
            case 1712: found = try set(&cancellation, value.milliseconds())
            case 1713: flagValues |= try value.flag() ? 1 : 0
            case 1719: flagValues |= try value.flag() ? 2 : 0
            default: found = try set(&promotionalOffer, value.utf8Text(joined: &joined))   // 1721
            }
            // Empty strings mean absent; the field still counts as seen for the duplicate check.
            if !found { absent |= bit }
        }

        /// Fields that were present but empty (absent in meaning).
        var absent: UInt32 = 0

        @inline(__always)
        private func set<T>(_ slot: inout T, _ value: T?) -> Bool {
            guard let value else { return false }
            slot = value
            return true
        }
    }
}
