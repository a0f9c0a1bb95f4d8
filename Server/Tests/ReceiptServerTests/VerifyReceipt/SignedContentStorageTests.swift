import Foundation
import HummingbirdTesting
import ReceiptTestSupport
import Testing

/// An app receipt is stored once per signed content (issue 33): the PKCS#7 around the signed
/// payload (the certificates' order, BER segments of the content, `crls`, unsigned attributes) is
/// the sender's to vary, so a client holding one receipt cannot fill storage with its variants.
@Suite struct SignedContentStorageTests {
    @Test(arguments: TestDatabase.backends)
    func variantsOfOneAppReceiptAreStoredOnce(_ backend: TestDatabase.Backend) async throws {
        var receipt = TestReceipt()
        receipt.bundleIdentifier = Synthetic.bundleID
        receipt.creationDate = SyntheticReceipts.rfc3339(1_709_294_400)
        receipt.purchases = [Synthetic.consumable("9100000001", purchased: 1_709_290_000)]
        let payload = receipt.payload()
        let chain = Synthetic.chain
        let variants = [
            chain.signedData(payload).encoded(),
            chain.signedData(payload, certificates: chain.certificates.reversed()).encoded(),
            chain.signedData(payload, berSegmentSize: 64).encoded(),
        ]
        #expect(Set(variants).count == 3, "three encodings of one signed payload")
        let database = try await TestDatabase.make(backend)
        try await TestServer.with(TestServer.configuration(database)) { client in
            for variant in variants { try await client.expectStatus(0, Synthetic.body(variant)) }
        }
        let counts = try await Inspect.counts(database)
        #expect(counts.receipts == 1 && counts.transactions == 1, "\(counts)")
    }
}
