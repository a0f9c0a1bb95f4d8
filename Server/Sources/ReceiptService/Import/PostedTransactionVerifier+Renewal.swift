import AppStoreJWS
import ReceiptStore

extension PostedTransactionVerifier {
    /// A signed renewal info read beside `transaction` (one `lastTransactions` entry of Get All
    /// Subscription Statuses), as a notification's would be stored: verified under the App Store
    /// signed-data policy in the transaction's environment, the members its key needs present,
    /// dates printable (`NotificationVerifier.renewalInfo`). Renewal info names no app, so it is
    /// kept only for the original transaction of a verified transaction of the importing app.
    func renewal(_ token: String, beside transaction: PostedTransaction) throws(AppStoreAPIError) -> RenewalInfoRecord {
        let payload: JWSRenewalInfoDecodedPayload
        do {
            payload = try appStore.verifyRenewalInfo(token, expecting: JWSExpectation(environment: transaction.environment))
        } catch {
            throw .badRequest("signedRenewalInfo: " + NotificationService.oneLine(error.description))
        }
        let original = transaction.transaction.originalTransactionID
        guard payload.originalTransactionId == original else {
            throw .badRequest(
                "signedRenewalInfo: originalTransactionId \(payload.originalTransactionId ?? "absent"), its transaction's is \(original)")
        }
        do {
            return try NotificationVerifier.renewalInfo(
                payload, jws: token, of: NotificationApp(bundleID: transaction.bundleID, environment: transaction.environment))
        } catch {
            throw .badRequest(NotificationService.oneLine(error.reason))
        }
    }
}
