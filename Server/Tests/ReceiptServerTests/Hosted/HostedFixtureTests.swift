import AppReceipt
import Foundation
import HummingbirdTesting
import ReceiptService
import ReceiptStore
import Testing

/// Apple's own receipts (the shared fixtures) through the hosted API under Apple's root: each
/// App Store receipt is 0 with its token, answered with the very object verifyReceipt gives at
/// its endpoint; a token of another app is 403; Xcode receipts, which the App Store policy does
/// not trust, are 21003.
@Suite(.enabled(if: Fixtures.shouldRun))
struct HostedFixtureTests {
    @Test(arguments: Fixtures.receipts.map(\.name))
    func fixtureThroughTheHostedAPI(_ name: String) async throws {
        let fixture = try #require(Fixtures.receipts.first { $0.name == name })
        let bytes = try Fixtures.bytes("receipts/\(name).der")
        let receipt = try AppReceipt(bytes)
        let setup = try await HostedSetup.make(.sqlite)
        let token = try await Stores.with(DatabaseLocation(setup.database.url), secrets: TestSecrets.key, logger: TestServer.logger) { store in
            try await CredentialAdmin(store: store, secrets: TestSecrets.key).addApp(
                receipt.bundleIdentifier, sharedSecret: nil, appleID: nil, encryptionKey: false
            ).token
        }
        // Apple's root (no --root), Xcode receipts allowed at verifyReceipt's sandbox endpoint.
        let configuration = TestServer.configuration(setup.database, allowXcode: true, roots: [])
        try await TestServer.with(configuration) { client in
            let own = try await client.hosted(HostedSetup.form(apiKey: setup.key, token: token, receipt: bytes))
            let other = try await client.hosted(HostedSetup.form(apiKey: setup.key, token: setup.otherToken, receipt: bytes))
            #expect(own.code == 200 && other.code == 200)
            if fixture.xcode {
                #expect(own.status == 21003 && other.status == 21003, "\(name): Xcode receipts are not the App Store's")
                return
            }
            #expect(own.status == 0 && own.description == "Receipt valid", "\(name)")
            #expect(own.object["receipt"] is [String: Any], "\(name)")
            #expect(own.object["environment"] as? String == (fixture.sandbox ? "Sandbox" : "Production"))
            let verifyReceipt = try await client.verify(Synthetic.body(bytes), sandbox: fixture.sandbox)
            #expect(
                sameJSON(withoutRequestDates(verifyReceiptShape(own.object)), withoutRequestDates(verifyReceipt)),
                "\(name): not verifyReceipt's answer")
            #expect(other.status == 403 && other.object["receipt"] == nil, "\(name): another app's token")
        }
    }
}
