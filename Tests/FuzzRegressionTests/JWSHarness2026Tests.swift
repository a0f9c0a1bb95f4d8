// The jws harness over Apple's 2026 payload shapes (issue 40): arrays of objects inside
// `advancedCommerceInfo` and the Retention Messaging real-time request, signed here.

import FuzzTargets
import Testing

@Suite("The jws harness over Apple's 2026 payloads")
struct JWSHarness2026Tests {
    @Test(arguments: [
        #"{"transactionId":"1","signedDate":1709251200000,"advancedCommerceInfo":{"items":[{"SKU":"a","refunds":[{"refundAmount":1},{}]},{}]}}"#,
        #"{"autoRenewStatus":1,"signedDate":1709251200000,"advancedCommerceInfo":{"items":[{"priceIncreaseInfo":{"dependentSKUs":["b"]}}]},"commitmentInfo":{"commitmentAutoRenewStatus":1}}"#,
        #"{"originalTransactionId":"9","appAppleId":531412,"productId":"p","userLocale":"en-US","requestIdentifier":"3db5c98d-8acf-4e29-831e-8e1f82f9f6e9","environment":"Production","signedDate":1709251200000}"#,
    ])
    func payloadsPassTheHarness(payload: String) throws {
        try Harness.jws.check(Array(payload.utf8))
    }
}
