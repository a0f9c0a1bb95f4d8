import AppStoreServerClient
import ReceiptService

/// The App Store Server API client as the import service reads it: the two calls, their errors
/// as `ImportFetchFailure`. The composition root's glue: the service knows no HTTP, the client
/// no import.
struct ClientImportSource: ImportSource {
    let client: AppStoreServerAPIClient

    func history(transactionID: String, revision: String?) async throws(ImportFetchFailure) -> ImportHistoryPage {
        do {
            let page = try await client.transactionHistory(transactionID, revision: revision)
            return ImportHistoryPage(signedTransactions: page.signedTransactions, revision: page.revision, hasMore: page.hasMore)
        } catch {
            throw Self.failure(error)
        }
    }

    func subscriptionStatuses(transactionID: String) async throws(ImportFetchFailure) -> [ImportStatusEntry] {
        do {
            return try await client.subscriptionStatuses(transactionID).data.flatMap(\.lastTransactions).map {
                ImportStatusEntry(
                    originalTransactionID: $0.originalTransactionId, signedTransactionInfo: $0.signedTransactionInfo,
                    signedRenewalInfo: $0.signedRenewalInfo)
            }
        } catch {
            throw Self.failure(error)
        }
    }

    static func failure(_ error: AppStoreServerAPIClientError) -> ImportFetchFailure {
        ImportFetchFailure(httpStatus: error.httpStatus, errorCode: error.errorCode, reason: error.reason)
    }
}
