import JSONText
/// A transaction's `commitmentInfo` (`TransactionCommitmentInfo`): the commitment of a
/// subscription billed monthly over a longer committed term.
public struct TransactionCommitmentInfo: Sendable, Hashable {
    /// `billingPeriodNumber`: which billing period of the commitment this transaction pays for (from 1).
    public var billingPeriodNumber: Int64?
    /// `commitmentExpiresDate`: when the commitment ends.
    public var commitmentExpiresDate: UnixMilliseconds?
    /// `commitmentPrice`: the price of the whole commitment, in milliunits.
    public var commitmentPrice: Int64?
    /// `totalBillingPeriods`: how many billing periods the commitment has.
    public var totalBillingPeriods: Int64?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    init(reading reader: inout PayloadReader) throws(JWSPayloadError) {
        try reader.readObject { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "billingPeriodNumber": billingPeriodNumber = try reader.int64(name)
            case "commitmentExpiresDate": commitmentExpiresDate = try reader.milliseconds(name)
            case "commitmentPrice": commitmentPrice = try reader.int64(name)
            case "totalBillingPeriods": totalBillingPeriods = try reader.int64(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}

/// Renewal info's `commitmentInfo` (`RenewalCommitmentInfo`): how a commitment renews when its term ends.
public struct RenewalCommitmentInfo: Sendable, Hashable {
    /// `commitmentAutoRenewProductId`: the product the commitment renews to.
    public var commitmentAutoRenewProductId: String?
    /// `commitmentAutoRenewStatus`: 1 the commitment renews, 0 automatic renewal is off.
    public var commitmentAutoRenewStatus: Int64?
    /// `commitmentRenewalBillingPlanType`: `BILLED_UPFRONT` or `MONTHLY` for the renewed commitment (`RenewalBillingPlanType`).
    public var commitmentRenewalBillingPlanType: String?
    /// `commitmentRenewalDate`: when the commitment renews (or ends).
    public var commitmentRenewalDate: UnixMilliseconds?
    /// `commitmentRenewalPrice`: the renewed commitment's price, in milliunits.
    public var commitmentRenewalPrice: Int64?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    init(reading reader: inout PayloadReader) throws(JWSPayloadError) {
        try reader.readObject { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "commitmentAutoRenewProductId": commitmentAutoRenewProductId = try reader.string(name)
            case "commitmentAutoRenewStatus": commitmentAutoRenewStatus = try reader.int64(name)
            case "commitmentRenewalBillingPlanType": commitmentRenewalBillingPlanType = try reader.string(name)
            case "commitmentRenewalDate": commitmentRenewalDate = try reader.milliseconds(name)
            case "commitmentRenewalPrice": commitmentRenewalPrice = try reader.int64(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}
