import AppStoreJWS
import ReceiptTestSupport
import TestHelpers
import Testing
import X509Certificates

/// Issue 40, Apple's API as of 2026: the Advanced Commerce, billing plan and commitment members of
/// transactions and renewal info, and the Retention Messaging real-time request. The JSON is
/// Apple's, from app-store-server-library-python's tests/resources/models (signedTransaction.json,
/// signedRenewalInfo.json, decodedRealtimeRequest.json), cut to the members under test.
@Suite struct AppleAPI2026PayloadTests {
    static let transaction = """
        {"transactionId":"23456","bundleId":"com.example","environment":"LocalTesting","signedDate":1698148900000,\
        "advancedCommerceInfo":{"descriptors":{"description":"Premium Plan","displayName":"Premium"},"estimatedTax":1500,\
        "items":[{"SKU":"com.example.sku.premium","description":"Premium feature","displayName":"Premium Feature","price":9990,\
        "refunds":[{"refundAmount":5000,"refundDate":1698149100000,"refundReason":"FULFILLMENT_ISSUE","refundType":"PRORATED"}],\
        "revocationDate":1698149200000}],"period":"P1M","requestReferenceId":"ref-12345","taxCode":"TAX_CODE_1",\
        "taxExclusivePrice":8490,"taxRate":"0.15"},\
        "billingPlanType":"MONTHLY",\
        "commitmentInfo":{"billingPeriodNumber":3,"commitmentExpiresDate":1698150000000,"commitmentPrice":119880,"totalBillingPeriods":12},\
        "futureMember":{"kept":true}}
        """

    static let renewalInfo = """
        {"originalTransactionId":"12345","productId":"com.example.product","autoRenewStatus":1,"environment":"LocalTesting",\
        "signedDate":1698148800000,\
        "advancedCommerceInfo":{"consistencyToken":"token-abc-123","descriptors":{"description":"Premium Plan","displayName":"Premium"},\
        "items":[{"SKU":"com.example.sku.premium","description":"Premium feature","displayName":"Premium Feature","price":9990,\
        "priceIncreaseInfo":{"dependentSKUs":["com.example.sku.1","com.example.sku.2"],"price":12990,"status":"PENDING"}}],\
        "period":"P1M","requestReferenceId":"ref-12345","taxCode":"TAX_CODE_1"},\
        "commitmentInfo":{"commitmentAutoRenewProductId":"com.example.product.commitment","commitmentAutoRenewStatus":1,\
        "commitmentRenewalBillingPlanType":"MONTHLY","commitmentRenewalDate":1698149500000,"commitmentRenewalPrice":9990},\
        "renewalBillingPlanType":"MONTHLY","futureMember":[1]}
        """

    static let realtimeRequest = """
        {"originalTransactionId":"99371282","appAppleId":531412,"productId":"com.example.product","userLocale":"en-US",\
        "requestIdentifier":"3db5c98d-8acf-4e29-831e-8e1f82f9f6e9","environment":"LocalTesting","signedDate":1698148900000}
        """

    /// An offer on an item (Apple's advancedCommerceOffer.json), which the transaction example has none of.
    static let itemWithOffer = """
        {"transactionId":"1","advancedCommerceInfo":{"items":[{"SKU":"sku","offer":\
        {"periodCount":3,"price":5000,"period":"P1M","reason":"WIN_BACK"}}]}}
        """

    @Test func transactionAdvancedCommerceBillingPlanAndCommitment() throws {
        let t = try JWSTransactionDecodedPayload(payload: Array(Self.transaction.utf8))
        let info = try #require(t.advancedCommerceInfo)
        #expect(info.descriptors?.description == "Premium Plan")
        #expect(info.descriptors?.displayName == "Premium")
        #expect(info.estimatedTax == 1500)
        #expect(info.period == "P1M")
        #expect(info.requestReferenceId == "ref-12345")
        #expect(info.taxCode == "TAX_CODE_1")
        #expect(info.taxExclusivePrice == 8490)
        #expect(info.taxRate == "0.15")
        let items = try #require(info.items)
        #expect(items.count == 1)
        #expect(items[0].SKU == "com.example.sku.premium")
        #expect(items[0].description == "Premium feature")
        #expect(items[0].displayName == "Premium Feature")
        #expect(items[0].price == 9990)
        #expect(items[0].offer == nil)
        #expect(items[0].revocationDate == UnixMilliseconds(1_698_149_200_000))
        let refunds = try #require(items[0].refunds)
        #expect(refunds.count == 1)
        #expect(refunds[0].refundAmount == 5000)
        #expect(refunds[0].refundDate == UnixMilliseconds(1_698_149_100_000))
        #expect(refunds[0].refundReason == "FULFILLMENT_ISSUE")
        #expect(refunds[0].refundType == "PRORATED")
        #expect(t.billingPlanType == "MONTHLY")
        let commitment = try #require(t.commitmentInfo)
        #expect(commitment.billingPeriodNumber == 3)
        #expect(commitment.commitmentExpiresDate == UnixMilliseconds(1_698_150_000_000))
        #expect(commitment.commitmentPrice == 119_880)
        #expect(commitment.totalBillingPeriods == 12)
        #expect(info.additionalFields.isEmpty && items[0].additionalFields.isEmpty && commitment.additionalFields.isEmpty)
    }

    @Test func advancedCommerceOfferOfAnItem() throws {
        let t = try JWSTransactionDecodedPayload(payload: Array(Self.itemWithOffer.utf8))
        let offer = try #require(t.advancedCommerceInfo?.items?.first?.offer)
        #expect(offer.periodCount == 3)
        #expect(offer.price == 5000)
        #expect(offer.period == "P1M")
        #expect(offer.reason == "WIN_BACK")
    }

    @Test func renewalInfoAdvancedCommerceBillingPlanAndCommitment() throws {
        let r = try JWSRenewalInfoDecodedPayload(payload: Array(Self.renewalInfo.utf8))
        let info = try #require(r.advancedCommerceInfo)
        #expect(info.consistencyToken == "token-abc-123")
        #expect(info.descriptors?.description == "Premium Plan")
        #expect(info.descriptors?.displayName == "Premium")
        #expect(info.period == "P1M")
        #expect(info.requestReferenceId == "ref-12345")
        #expect(info.taxCode == "TAX_CODE_1")
        let items = try #require(info.items)
        #expect(items.count == 1)
        #expect(items[0].SKU == "com.example.sku.premium")
        #expect(items[0].description == "Premium feature")
        #expect(items[0].displayName == "Premium Feature")
        #expect(items[0].price == 9990)
        let increase = try #require(items[0].priceIncreaseInfo)
        #expect(increase.dependentSKUs == ["com.example.sku.1", "com.example.sku.2"])
        #expect(increase.price == 12990)
        #expect(increase.status == "PENDING")
        let commitment = try #require(r.commitmentInfo)
        #expect(commitment.commitmentAutoRenewProductId == "com.example.product.commitment")
        #expect(commitment.commitmentAutoRenewStatus == 1)
        #expect(commitment.commitmentRenewalBillingPlanType == "MONTHLY")
        #expect(commitment.commitmentRenewalDate == UnixMilliseconds(1_698_149_500_000))
        #expect(commitment.commitmentRenewalPrice == 9990)
        #expect(r.renewalBillingPlanType == "MONTHLY")
    }

    @Test func theNewMembersAreNoLongerAdditionalFields() throws {
        let t = try JWSTransactionDecodedPayload(payload: Array(Self.transaction.utf8))
        #expect(Set(t.additionalFields.keys) == ["futureMember"])
        #expect(t.additionalFields["futureMember"]?["kept"] == .bool(true))
        let r = try JWSRenewalInfoDecodedPayload(payload: Array(Self.renewalInfo.utf8))
        #expect(Set(r.additionalFields.keys) == ["futureMember"])
        let request = try DecodedRealtimeRequestBody(payload: Array(Self.realtimeRequest.utf8))
        #expect(request.additionalFields.isEmpty)
        // A member Apple adds inside a nested object later is kept there.
        let nested = #"{"commitmentInfo":{"commitmentPrice":1,"later":"x"}}"#
        let kept = try JWSTransactionDecodedPayload(payload: Array(nested.utf8)).commitmentInfo
        #expect(kept?.additionalFields == ["later": .string("x")])
    }

    @Test func membersOfAnotherTypeAreRefusedByName() {
        func error(_ json: String) -> JWSPayloadError? {
            #expect(throws: JWSPayloadError.self) { try JWSTransactionDecodedPayload(payload: Array(json.utf8)) }
        }
        #expect(error(#"{"commitmentInfo":[]}"#) == .invalidMember(name: "commitmentInfo", expected: "an object"))
        #expect(error(#"{"billingPlanType":1}"#) == .invalidMember(name: "billingPlanType", expected: "a string"))
        #expect(error(#"{"advancedCommerceInfo":{"items":{}}}"#) == .invalidMember(name: "items", expected: "an array of objects"))
        #expect(error(#"{"advancedCommerceInfo":{"items":[null]}}"#) == .invalidMember(name: "items", expected: "an array of objects"))
        #expect(error(#"{"advancedCommerceInfo":{"estimatedTax":1.5}}"#) == .invalidMember(name: "estimatedTax", expected: "an integer"))
        #expect(
            error(#"{"advancedCommerceInfo":{"items":[{"refunds":[{"refundDate":"x"}]}]}}"#)
                == .invalidMember(name: "refundDate", expected: "milliseconds since 1970"))
        // null reads as absent, as for every other member.
        let nulls = #"{"advancedCommerceInfo":null,"billingPlanType":null,"commitmentInfo":null}"#
        let t = try? JWSTransactionDecodedPayload(payload: Array(nulls.utf8))
        #expect(t != nil && t?.advancedCommerceInfo == nil && t?.commitmentInfo == nil && t?.additionalFields.isEmpty == true)
    }

    @Test func realtimeRequestDecodes() throws {
        let request = try DecodedRealtimeRequestBody(payload: Array(Self.realtimeRequest.utf8))
        #expect(request.originalTransactionId == "99371282")
        #expect(request.appAppleId == 531_412)
        #expect(request.productId == "com.example.product")
        #expect(request.userLocale == "en-US")
        #expect(request.requestIdentifier == "3db5c98d-8acf-4e29-831e-8e1f82f9f6e9")
        #expect(request.environment == "LocalTesting")
        #expect(request.signedDate == UnixMilliseconds(1_698_148_900_000))
    }

    @Test func realtimeRequestBodyHoldsTheToken() throws {
        #expect(try RealtimeRequestBody(body: Array(#"{"signedPayload":"eyJ.a.b","x":[]}"#.utf8)).signedPayload == "eyJ.a.b")
        #expect(try RealtimeRequestBody(body: Array("{}".utf8)).signedPayload == nil)
        #expect(throws: JWSPayloadError.self) { try RealtimeRequestBody(body: Array(#"{"signedPayload":1}"#.utf8)) }
    }
}

/// A signed real-time request verifies like every other token, then its app and environment are
/// compared as Apple's `verify_and_decode_realtime_request` compares them.
@Suite struct SignedRealtimeRequestTests {
    static let chain = TestJWSChain()
    static let root = try! TrustAnchor(derEncoded: chain.rootCertificate)
    static let verifier = JWSVerifier(policy: .appStoreSignedData(anchors: [root]))

    static func payload(environment: String = "Production", appAppleId: Int64 = 531_412) -> String {
        """
        {"originalTransactionId":"99371282","appAppleId":\(appAppleId),"productId":"com.example.product","userLocale":"en-US",\
        "requestIdentifier":"3db5c98d-8acf-4e29-831e-8e1f82f9f6e9","environment":"\(environment)","signedDate":1709251200000}
        """
    }

    static func error(_ token: String, _ expectation: JWSExpectation) -> JWSError? {
        #expect(throws: JWSError.self) { _ = try verifier.verifyRealtimeRequest(token, expecting: expectation) }
    }

    @Test func aGenuineRequestVerifiesAndDecodes() throws {
        let token = Self.chain.token(payload: Self.payload())
        let body = try RealtimeRequestBody(body: Array("{\"signedPayload\":\"\(token)\"}".utf8))
        let request = try Self.verifier.verifyRealtimeRequest(
            try #require(body.signedPayload), expecting: .init(appAppleId: 531_412, environment: "Production"))
        #expect(request.originalTransactionId == "99371282")
        #expect(request.appAppleId == 531_412)
        #expect(request.userLocale == "en-US")
        #expect(request.signedDate == UnixMilliseconds(1_709_251_200_000))
        // The request names no bundle: an expected bundle id is not compared.
        _ = try Self.verifier.verifyRealtimeRequest(token, expecting: .init(bundleId: "com.example.app"))
    }

    @Test func theAppAndEnvironmentAreCompared() throws {
        let production = Self.chain.token(payload: Self.payload())
        #expect(Self.error(production, .init(appAppleId: 1)) == .unexpectedAppAppleId(expected: 1, found: 531_412))
        #expect(Self.error(production, .init(environment: "Sandbox")) == .unexpectedEnvironment(expected: "Sandbox", found: "Production"))
        // Outside production the app's Apple id is not compared.
        let sandbox = Self.chain.token(payload: Self.payload(environment: "Sandbox", appAppleId: 7))
        _ = try Self.verifier.verifyRealtimeRequest(sandbox, expecting: .init(appAppleId: 1, environment: "Sandbox"))
    }

    @Test func aRequestSignedUnderAnotherRootIsRefused() throws {
        var forged = TestJWSChain()
        forged.root.key = TestECKeys.p384[2]   // same names, another key
        let token = forged.token(payload: Self.payload())
        let root = try Certificate(derEncoded: forged.rootCertificate)
        #expect(Self.error(token, .init()) == .rootNotTrusted(certificate: EncodedCertificate(root)))
        #expect((try? JWSVerifier().verifyRealtimeRequest(Self.chain.token(payload: Self.payload()))) == nil)
    }

    @Test func aRequestThatIsNotOneIsAPayloadError() {
        let token = Self.chain.token(payload: #"{"appAppleId":"531412","signedDate":1709251200000}"#)
        #expect(Self.error(token, .init()) == .payload(.invalidMember(name: "appAppleId", expected: "an integer")))
    }
}

@Suite struct RealtimeRequestKindTests {
    @Test func aRealtimeRequestIsToldApart() {
        #expect(SignedPayloadKind(payload: Array(AppleAPI2026PayloadTests.realtimeRequest.utf8)) == .realtimeRequest)
        #expect(SignedPayloadKind(payload: Array(AppleAPI2026PayloadTests.transaction.utf8)) == .transaction)
        #expect(SignedPayloadKind(payload: Array(AppleAPI2026PayloadTests.renewalInfo.utf8)) == .renewalInfo)
    }
}
