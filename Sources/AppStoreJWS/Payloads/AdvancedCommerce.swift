import JSONText
/// A transaction's `advancedCommerceInfo` (`AdvancedCommerceTransactionInfo`): present only for
/// SKUs sold through the Advanced Commerce API. Members without a field here are kept in
/// `additionalFields`.
public struct AdvancedCommerceTransactionInfo: Sendable, Hashable {
    /// `descriptors`: the display name and description of the product (`AdvancedCommerceDescriptors`).
    public var descriptors: AdvancedCommerceDescriptors?
    /// `estimatedTax`: the estimated tax, in milliunits (`advancedCommerceEstimatedTax`).
    public var estimatedTax: Int64?
    /// `items`: the SKUs the transaction covers (`AdvancedCommerceTransactionItem`).
    public var items: [AdvancedCommerceTransactionItem]?
    /// `period`: the length of one subscription cycle, ISO 8601 (`P1W` … `P1Y`; `advancedCommercePeriod`).
    public var period: String?
    /// `requestReferenceId`: the UUID the developer gave the request (`advancedCommerceRequestReferenceId`).
    public var requestReferenceId: String?
    /// `taxCode`: the product's tax code (`advancedCommerceTaxCode`).
    public var taxCode: String?
    /// `taxExclusivePrice`: the price before tax, in milliunits (`advancedCommerceTaxExclusivePrice`).
    public var taxExclusivePrice: Int64?
    /// `taxRate`: the tax rate applied, as a decimal string (`advancedCommerceTaxRate`).
    public var taxRate: String?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    init(reading reader: inout PayloadReader) throws(JWSPayloadError) {
        try reader.readObject { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "descriptors": descriptors = try reader.nested(name, AdvancedCommerceDescriptors.init)
            case "estimatedTax": estimatedTax = try reader.int64(name)
            case "items": items = try reader.objects(name, AdvancedCommerceTransactionItem.init)
            case "period": period = try reader.string(name)
            case "requestReferenceId": requestReferenceId = try reader.string(name)
            case "taxCode": taxCode = try reader.string(name)
            case "taxExclusivePrice": taxExclusivePrice = try reader.int64(name)
            case "taxRate": taxRate = try reader.string(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}

/// One SKU of an Advanced Commerce transaction (`AdvancedCommerceTransactionItem`).
public struct AdvancedCommerceTransactionItem: Sendable, Hashable {
    /// `SKU`: the product identifier the developer manages in their own system (`advancedCommerceSKU`).
    public var SKU: String?
    /// `description`: the developer's description of the SKU (`advancedCommerceDescription`).
    public var description: String?
    /// `displayName`: the product name shown to customers (`advancedCommerceDisplayName`).
    public var displayName: String?
    /// `offer`: the discount offer applied to the SKU (`AdvancedCommerceOffer`).
    public var offer: AdvancedCommerceOffer?
    /// `price`: the SKU's price, in milliunits (`advancedCommercePrice`).
    public var price: Int64?
    /// `refunds`: the refunds of this SKU (`AdvancedCommerceRefund`).
    public var refunds: [AdvancedCommerceRefund]?
    /// `revocationDate`: when the App Store refunded or revoked the SKU.
    public var revocationDate: UnixMilliseconds?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    init(reading reader: inout PayloadReader) throws(JWSPayloadError) {
        try reader.readObject { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "SKU": SKU = try reader.string(name)
            case "description": description = try reader.string(name)
            case "displayName": displayName = try reader.string(name)
            case "offer": offer = try reader.nested(name, AdvancedCommerceOffer.init)
            case "price": price = try reader.int64(name)
            case "refunds": refunds = try reader.objects(name, AdvancedCommerceRefund.init)
            case "revocationDate": revocationDate = try reader.milliseconds(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}

/// Renewal info's `advancedCommerceInfo` (`AdvancedCommerceRenewalInfo`): present only for
/// subscriptions sold through the Advanced Commerce API.
public struct AdvancedCommerceRenewalInfo: Sendable, Hashable {
    /// `consistencyToken`: the token of the subscription's current state (`advancedCommerceConsistencyToken`).
    public var consistencyToken: String?
    /// `descriptors`: the display name and description of the subscription (`AdvancedCommerceDescriptors`).
    public var descriptors: AdvancedCommerceDescriptors?
    /// `items`: the SKUs the next renewal covers (`AdvancedCommerceRenewalItem`).
    public var items: [AdvancedCommerceRenewalItem]?
    /// `period`: the length of one subscription cycle, ISO 8601 (`P1W` … `P1Y`; `advancedCommercePeriod`).
    public var period: String?
    /// `requestReferenceId`: the UUID the developer gave the request (`advancedCommerceRequestReferenceId`).
    public var requestReferenceId: String?
    /// `taxCode`: the subscription's tax code (`advancedCommerceTaxCode`).
    public var taxCode: String?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    init(reading reader: inout PayloadReader) throws(JWSPayloadError) {
        try reader.readObject { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "consistencyToken": consistencyToken = try reader.string(name)
            case "descriptors": descriptors = try reader.nested(name, AdvancedCommerceDescriptors.init)
            case "items": items = try reader.objects(name, AdvancedCommerceRenewalItem.init)
            case "period": period = try reader.string(name)
            case "requestReferenceId": requestReferenceId = try reader.string(name)
            case "taxCode": taxCode = try reader.string(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}

/// One SKU of an Advanced Commerce subscription's next renewal (`AdvancedCommerceRenewalItem`).
public struct AdvancedCommerceRenewalItem: Sendable, Hashable {
    /// `SKU`: the product identifier the developer manages in their own system (`advancedCommerceSKU`).
    public var SKU: String?
    /// `description`: the developer's description of the SKU (`advancedCommerceDescription`).
    public var description: String?
    /// `displayName`: the product name shown to customers (`advancedCommerceDisplayName`).
    public var displayName: String?
    /// `offer`: the discount offer for the renewal (`AdvancedCommerceOffer`).
    public var offer: AdvancedCommerceOffer?
    /// `price`: the SKU's renewal price, in milliunits (`advancedCommercePrice`).
    public var price: Int64?
    /// `priceIncreaseInfo`: a price increase of the SKU and the customer's answer (`AdvancedCommercePriceIncreaseInfo`).
    public var priceIncreaseInfo: AdvancedCommercePriceIncreaseInfo?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    init(reading reader: inout PayloadReader) throws(JWSPayloadError) {
        try reader.readObject { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "SKU": SKU = try reader.string(name)
            case "description": description = try reader.string(name)
            case "displayName": displayName = try reader.string(name)
            case "offer": offer = try reader.nested(name, AdvancedCommerceOffer.init)
            case "price": price = try reader.int64(name)
            case "priceIncreaseInfo": priceIncreaseInfo = try reader.nested(name, AdvancedCommercePriceIncreaseInfo.init)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}

/// The display name and description of an Advanced Commerce product (`AdvancedCommerceDescriptors`).
public struct AdvancedCommerceDescriptors: Sendable, Hashable {
    /// `description`: the developer's description of the product (`advancedCommerceDescription`).
    public var description: String?
    /// `displayName`: the product name shown to customers (`advancedCommerceDisplayName`).
    public var displayName: String?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    init(reading reader: inout PayloadReader) throws(JWSPayloadError) {
        try reader.readObject { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "description": description = try reader.string(name)
            case "displayName": displayName = try reader.string(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}

/// A discount offer on an Advanced Commerce subscription SKU (`AdvancedCommerceOffer`).
public struct AdvancedCommerceOffer: Sendable, Hashable {
    /// `period`: the length of one offer period, ISO 8601 (`P3D` … `P1Y`; `AdvancedCommerceOfferPeriod`).
    public var period: String?
    /// `periodCount`: how many periods the offer lasts.
    public var periodCount: Int64?
    /// `price`: the offer price, in milliunits.
    public var price: Int64?
    /// `reason`: why the offer is made: `ACQUISITION`, `WIN_BACK` or `RETENTION` (`AdvancedCommerceOfferReason`).
    public var reason: String?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    init(reading reader: inout PayloadReader) throws(JWSPayloadError) {
        try reader.readObject { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "period": period = try reader.string(name)
            case "periodCount": periodCount = try reader.int64(name)
            case "price": price = try reader.int64(name)
            case "reason": reason = try reader.string(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}

/// A refund of an Advanced Commerce SKU (`AdvancedCommerceRefund`).
public struct AdvancedCommerceRefund: Sendable, Hashable {
    /// `refundAmount`: the amount refunded, in milliunits.
    public var refundAmount: Int64?
    /// `refundDate`: when the App Store refunded the SKU.
    public var refundDate: UnixMilliseconds?
    /// `refundReason`: `UNINTENDED_PURCHASE`, `FULFILLMENT_ISSUE`, `UNSATISFIED_WITH_PURCHASE`, `LEGAL`, `OTHER`, … (`AdvancedCommerceRefundReason`).
    public var refundReason: String?
    /// `refundType`: `FULL`, `PRORATED` or `CUSTOM` (`AdvancedCommerceRefundType`).
    public var refundType: String?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    init(reading reader: inout PayloadReader) throws(JWSPayloadError) {
        try reader.readObject { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "refundAmount": refundAmount = try reader.int64(name)
            case "refundDate": refundDate = try reader.milliseconds(name)
            case "refundReason": refundReason = try reader.string(name)
            case "refundType": refundType = try reader.string(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}

/// A price increase of an Advanced Commerce SKU (`AdvancedCommercePriceIncreaseInfo`).
public struct AdvancedCommercePriceIncreaseInfo: Sendable, Hashable {
    /// `dependentSKUs`: the SKUs the App Store cancels if the customer declines the increase.
    public var dependentSKUs: [String]?
    /// `price`: the new price, in milliunits.
    public var price: Int64?
    /// `status`: `SCHEDULED`, `PENDING` or `ACCEPTED` (`AdvancedCommercePriceIncreaseInfoStatus`).
    public var status: String?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    init(reading reader: inout PayloadReader) throws(JWSPayloadError) {
        try reader.readObject { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "dependentSKUs": dependentSKUs = try reader.strings(name)
            case "price": price = try reader.int64(name)
            case "status": status = try reader.string(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}
