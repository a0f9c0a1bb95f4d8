/// The samples committed under `Examples/` (see `make-examples`).
public enum ExampleSamples: Sendable {
    public struct Sample: Sendable {
        public let name: String
        public let bytes: [UInt8]
    }

    /// `sample-receipt.der` and `sample-root.der`.
    public static var all: [Sample] {
        let chain = TestChain()
        return [
            Sample(name: "sample-receipt.der", bytes: chain.receipt(receipt)),
            Sample(name: "sample-root.der", bytes: chain.rootCertificate),
        ]
    }

    /// The sample's payload: a subscription that renewed twice (the last renewal active until
    /// 2024-03-31), a refunded one-off purchase, and a consumable.
    public static var receipt: TestReceipt {
        var receipt = TestReceipt()
        receipt.bundleIdentifier = "com.example.receipts"
        receipt.appVersion = "42"
        receipt.creationDate = "2024-03-01T12:00:00Z"
        receipt.purchases = [
            .init(
                productIdentifier: "com.example.receipts.pro.monthly", transactionIdentifier: "100000000000001",
                purchaseDate: "2024-01-01T10:00:00Z", originalTransactionIdentifier: "100000000000001",
                originalPurchaseDate: "2024-01-01T10:00:00Z", expirationDate: "2024-01-31T10:00:00Z",
                productType: 3, webOrderLineItemIdentifier: 200000000000001, isTrialPeriod: true, isInIntroOfferPeriod: false),
            .init(
                productIdentifier: "com.example.receipts.pro.monthly", transactionIdentifier: "100000000000002",
                purchaseDate: "2024-01-31T10:00:00Z", originalTransactionIdentifier: "100000000000001",
                originalPurchaseDate: "2024-01-01T10:00:00Z", expirationDate: "2024-02-29T10:00:00Z",
                productType: 3, webOrderLineItemIdentifier: 200000000000002, isTrialPeriod: false, isInIntroOfferPeriod: false),
            .init(
                productIdentifier: "com.example.receipts.pro.monthly", transactionIdentifier: "100000000000003",
                purchaseDate: "2024-02-29T10:00:00Z", originalTransactionIdentifier: "100000000000001",
                originalPurchaseDate: "2024-01-01T10:00:00Z", expirationDate: "2024-03-31T10:00:00Z",
                productType: 3, webOrderLineItemIdentifier: 200000000000003, isTrialPeriod: false, isInIntroOfferPeriod: false),
            .init(
                productIdentifier: "com.example.receipts.lifetime", transactionIdentifier: "100000000000004",
                purchaseDate: "2024-02-10T08:30:00Z", originalTransactionIdentifier: "100000000000004",
                cancellationDate: "2024-02-12T09:00:00Z", productType: 1),
            .init(
                productIdentifier: "com.example.receipts.coins100", transactionIdentifier: "100000000000005",
                purchaseDate: "2024-02-20T19:45:00Z", originalTransactionIdentifier: "100000000000005", productType: 0),
        ]
        return receipt
    }
}
