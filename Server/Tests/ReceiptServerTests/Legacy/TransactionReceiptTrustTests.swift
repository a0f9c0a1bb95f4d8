import Foundation
import HummingbirdTesting
import ReceiptStore
import Testing

/// What an iOS 6 style transaction receipt's signer vouches for, and nothing more (issue 33):
/// the signature covers the version byte and `purchase-info`, never the outer dictionary's
/// `environment`, `pod` or any other key. So production is never decided by the `environment`
/// line unless the operator says so for the app, every answer says which environment was claimed
/// and that nothing proved it, and a receipt is stored once by its signed form whatever a client
/// adds around it.
@Suite struct TransactionReceiptTrustTests {
    /// The genuine sandbox receipt of the shared fixtures (Apple's chain, 2012).
    static func fixture() throws -> String {
        String(decoding: try Fixtures.bytes("ios6/iap-node-sandbox-v2.txt"), as: UTF8.self)
    }

    static let fixtureBundleID = "com.mindmobapp.MindMob"

    /// The fixture with its `environment` line deleted, set to `Production`, or to `sandbox`
    /// (not Apple's spelling): each claims production, and nothing signed says otherwise.
    static func edits(_ text: String) -> [(name: String, text: String)] {
        let line = "\t\"environment\" = \"Sandbox\";\n"
        return [
            ("line deleted", text.replacingOccurrences(of: line, with: "")),
            ("Production", text.replacingOccurrences(of: line, with: "\t\"environment\" = \"Production\";\n")),
            ("sandbox", text.replacingOccurrences(of: line, with: "\t\"environment\" = \"sandbox\";\n")),
        ]
    }

    /// The finding as written: the edited genuine receipt is not 0 at production, and says what it
    /// claimed; the unedited one is 0 at the sandbox endpoint (in the sandbox) and 21007 at
    /// production. Nothing is stored as production.
    @Test(arguments: TestDatabase.backends)
    func editedEnvironmentIsNotProductionByDefault(_ backend: TestDatabase.Backend) async throws {
        guard Fixtures.shouldRun else { return }
        let text = try Self.fixture()
        let database = try await TestDatabase.make(backend)
        try await TestServer.with(TestServer.configuration(database, roots: [])) { client in
            let genuine = try await client.verify(Synthetic.body(Array(text.utf8)), sandbox: true)
            #expect(try JSONAnswer.status(genuine) == 0)
            #expect(genuine["environment"] as? String == "Sandbox" && genuine["claimed_environment"] as? String == "Sandbox")
            #expect(genuine["environment_proven"] as? Bool == false)
            try await client.expectStatus(21007, Synthetic.body(Array(text.utf8)))
            for edit in Self.edits(text) {
                let answer = try await client.verify(Synthetic.body(Array(edit.text.utf8)))
                #expect(try JSONAnswer.status(answer) == 21007, "\(edit.name)")
                #expect(answer["claimed_environment"] as? String == "Production", "\(edit.name)")
                #expect(answer["environment_proven"] as? Bool == false, "\(edit.name)")
                // At the sandbox endpoint it is what it can be proven to be at most: a sandbox receipt.
                let sandbox = try await client.verify(Synthetic.body(Array(edit.text.utf8)), sandbox: true)
                #expect(try JSONAnswer.status(sandbox) == 0 && sandbox["environment"] as? String == "Sandbox", "\(edit.name)")
            }
        }
        let stored = try await Self.storedReceipts(database, bundleID: Self.fixtureBundleID, transactionID: "1000000046178817")
        #expect(stored.production == nil, "nothing stored as production")
        #expect(stored.sandbox == (try SyntheticLegacy.signedForm(Array(text.utf8), sandbox: true)), "one signed form in the sandbox")
    }

    /// With the operator's opt-in for the app, a production claim is believed (the documented
    /// risk: the edited sandbox receipt passes), the answer still says it was not proven, and the
    /// claim of production is 21008 at the sandbox endpoint as Apple answered.
    @Test(arguments: TestDatabase.backends)
    func optInBelievesProductionClaims(_ backend: TestDatabase.Backend) async throws {
        guard Fixtures.shouldRun else { return }
        let text = try Self.fixture()
        let database = try await TestDatabase.make(backend)
        try await SyntheticLegacy.trustProductionClaims(database, bundleID: Self.fixtureBundleID)
        let deleted = try #require(Self.edits(text).first).text
        try await TestServer.with(TestServer.configuration(database, roots: [])) { client in
            let answer = try await client.verify(Synthetic.body(Array(deleted.utf8)))
            #expect(try JSONAnswer.status(answer) == 0)
            #expect(answer["environment"] as? String == "Production" && answer["environment_proven"] as? Bool == false)
            try await client.expectStatus(21008, Synthetic.body(Array(deleted.utf8)), sandbox: true)
            // The genuine sandbox receipt keeps Apple's answers.
            try await client.expectStatus(0, Synthetic.body(Array(text.utf8)), sandbox: true)
            try await client.expectStatus(21007, Synthetic.body(Array(text.utf8)))
        }
    }

    /// The opt-in is the app's alone: another app's operator choice changes nothing for this one.
    @Test func optInIsPerApp() async throws {
        guard Fixtures.shouldRun else { return }
        let deleted = try #require(Self.edits(try Self.fixture()).first).text
        let database = try await TestDatabase.make(.sqlite)
        try await SyntheticLegacy.trustProductionClaims(database, bundleID: "com.example.other")
        try await TestServer.with(TestServer.configuration(database, apps: [Self.fixtureBundleID], roots: [])) { client in
            try await client.expectStatus(21007, Synthetic.body(Array(deleted.utf8)))
        }
    }

    /// 300 variants of one receipt (another `pod`, another `signing-status`, a key of 60 KB, keys
    /// in another order) are one stored receipt: its signed form, a few kilobytes.
    @Test(arguments: TestDatabase.backends)
    func variantsAreStoredOnce(_ backend: TestDatabase.Backend) async throws {
        guard Fixtures.shouldRun else { return }
        let text = try Self.fixture()
        let database = try await TestDatabase.make(backend)
        let junk = String(repeating: "x", count: 60 * 1024)
        try await TestServer.with(TestServer.configuration(database, roots: [])) { client in
            for index in 0 ..< 300 {
                var variant = text.replacingOccurrences(of: "\"pod\" = \"100\";", with: "\"pod\" = \"\(index)\";")
                if index % 3 == 1 { variant = variant.replacingOccurrences(of: "}", with: "\t\"junk\" = \"\(junk)\";\n}") }
                if index % 3 == 2 {
                    variant = variant.replacingOccurrences(of: "\"signing-status\" = \"0\";", with: "\"signing-status\" = \"\(index)\";")
                    variant = "{\n" + variant.split(separator: "\n").dropFirst().dropLast().reversed().joined(separator: "\n") + "\n}"
                }
                let answer = try await client.verify(Synthetic.body(Array(variant.utf8)), sandbox: true)
                #expect(try JSONAnswer.status(answer) == 0, "variant \(index)")
            }
        }
        let counts = try await Inspect.counts(database)
        #expect(counts.receipts == 1 && counts.transactions == 1, "\(counts)")
        let stored = try await Self.storedReceipts(database, bundleID: Self.fixtureBundleID, transactionID: "1000000046178817")
        let signed = try #require(stored.sandbox)
        #expect(signed == (try SyntheticLegacy.signedForm(Array(text.utf8), sandbox: true)))
        #expect(signed.count < 4_096, "\(signed.count) bytes")
    }

    /// The newest stored receipt holding `transactionID` in each environment.
    static func storedReceipts(_ database: TestDatabase, bundleID: String, transactionID: String) async throws -> (
        production: [UInt8]?, sandbox: [UInt8]?
    ) {
        try await Stores.with(DatabaseLocation(database.url), secrets: TestSecrets.key, logger: TestServer.logger) { store in
            let production = try await store.history(bundleID: bundleID, environment: "Production", originalTransactionIDs: [transactionID])
            let sandbox = try await store.history(bundleID: bundleID, environment: "Sandbox", originalTransactionIDs: [transactionID])
            return (production.latestReceipt, sandbox.latestReceipt)
        }
    }
}
