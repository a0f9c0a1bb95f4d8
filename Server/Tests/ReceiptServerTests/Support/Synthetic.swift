import Foundation
import ReceiptTestSupport

/// Receipts built and signed in Swift by a test chain shaped like Apple's (the server trusts its
/// root through `--root`).
enum Synthetic {
    static let chain = TestChain()
    static let bundleID = "com.example.receipts"

    /// The chain's root certificate, written once to a temporary file for `--root`.
    static let rootPath: String = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-tests-root-\(getpid()).der")
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(chain.rootCertificate))
        return url.path
    }()

    /// One in-app purchase of an auto-renewable subscription.
    static func renewal(_ transaction: String, original: String, purchased: Int64, product: String = "com.example.receipts.monthly")
        -> TestReceipt.Purchase
    {
        TestReceipt.Purchase(
            productIdentifier: product, transactionIdentifier: transaction,
            purchaseDate: SyntheticReceipts.rfc3339(purchased), originalTransactionIdentifier: original,
            originalPurchaseDate: SyntheticReceipts.rfc3339(purchased),
            expirationDate: SyntheticReceipts.rfc3339(purchased + 30 * 86_400), productType: 3,
            webOrderLineItemIdentifier: Int64(transaction), isTrialPeriod: false, isInIntroOfferPeriod: false)
    }

    /// A consumable (no expiration date: not a subscription).
    static func consumable(_ transaction: String, purchased: Int64) -> TestReceipt.Purchase {
        TestReceipt.Purchase(
            productIdentifier: "com.example.receipts.coins", transactionIdentifier: transaction,
            purchaseDate: SyntheticReceipts.rfc3339(purchased), originalTransactionIdentifier: transaction,
            productType: 0)
    }

    /// A signed receipt with `purchases`, created at `created` (seconds since 1970).
    static func receipt(
        _ purchases: [TestReceipt.Purchase], created: Int64 = 1_709_294_400, environment: String = "Production",
        bundleID: String = bundleID
    ) -> [UInt8] {
        var receipt = TestReceipt()
        receipt.environment = environment
        receipt.bundleIdentifier = bundleID
        receipt.creationDate = SyntheticReceipts.rfc3339(created)
        receipt.purchases = purchases
        return chain.receipt(receipt)
    }

    /// Distinct receipt `index`: one subscription purchase whose transaction ids are unique to it.
    static func distinct(_ index: Int) -> [UInt8] {
        let id = String(3_000_000_000 + index)
        return receipt([renewal(id, original: id, purchased: 1_700_000_000 + Int64(index))])
    }

    /// The request bodies `bench-receipts` wrote (`RECEIPT_SERVER_TEST_BODIES`, set by
    /// `Server/ci`): many distinct receipts, signed by a release build because RSA signing in a
    /// debug build takes about half a second a receipt. Line `i` holds receipt `i`, whose only
    /// purchase has transaction and original transaction id `distinctBodyID(i)`.
    static func distinctBodies() throws -> [Data] {
        guard let path = ProcessInfo.processInfo.environment["RECEIPT_SERVER_TEST_BODIES"] else {
            throw UnexpectedAnswer(description: "RECEIPT_SERVER_TEST_BODIES is not set: run Server/ci, which writes the bodies")
        }
        guard let text = FileManager.default.contents(atPath: path) else { throw FixtureMissing(path: path) }
        return text.split(separator: UInt8(ascii: "\n")).map { Data($0) }
    }

    /// The transaction id of `bench-receipts`' receipt `index`.
    static func distinctBodyID(_ index: Int) -> String { String(8_000_000_000 + index) }

    /// The receipt bytes inside a request body.
    static func receiptBytes(_ body: Data) throws -> [UInt8] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any],
            let text = object["receipt-data"] as? String, let bytes = Data(base64Encoded: text)
        else {
            throw UnexpectedAnswer(description: "not a request body")
        }
        return [UInt8](bytes)
    }

    /// Whether the bodies are there: always true under CI, where their absence fails the tests.
    static let distinctBodiesAvailable = ProcessInfo.processInfo.environment["RECEIPT_SERVER_TEST_BODIES"] != nil || Fixtures.isCI

    /// The verifyReceipt request body for `bytes`.
    static func body(_ bytes: [UInt8], password: String? = nil, excludeOld: Bool? = nil) -> Data {
        var object: [String: Any] = ["receipt-data": Data(bytes).base64EncodedString()]
        if let password { object["password"] = password }
        if let excludeOld { object["exclude-old-transactions"] = excludeOld }
        return try! JSONSerialization.data(withJSONObject: object)
    }
}
