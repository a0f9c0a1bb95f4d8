import Foundation
import GRDB
import HummingbirdTesting
import PostgresNIO
@testable import ReceiptStore
import Testing

/// Schema version 3 on a database a version-2 server made: applied once at start-up, with what
/// version 2 stored kept (here an app registered with its Apple id).
@Suite struct NotificationMigrationTests {
    typealias N = SyntheticNotifications
    typealias Story = NotificationLifecycleTests

    /// Creates the schema as version 2 left it, with `Synthetic.bundleID` registered under Apple id 1234567890.
    static func makeVersion2(_ database: TestDatabase) async throws {
        try await OlderSchema.make(
            database, version: 2,
            rows: [
                "INSERT INTO apps (bundle_id, shared_secret_sha256, apple_id) VALUES ('\(Synthetic.bundleID)', NULL, 1234567890)"
            ])
    }

    @Test(arguments: TestDatabase.backends)
    func upgradesAVersion2Database(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await Self.makeVersion2(database)
        #expect(Schema.latestVersion >= 3)
        let subscribed = N.token(
            "SUBSCRIBED", signedDate: Story.t0 + 10_000, transaction: Story.firstMonth(signed: Story.t0 + 10_000),
            appAppleId: 1_234_567_890)
        let withoutAppleID = N.token("SUBSCRIBED", signedDate: Story.t0 + 10_000, transaction: Story.firstMonth(signed: Story.t0 + 10_000))
        try await TestServer.with(N.configuration(database)) { client in
            #expect(try await client.notify(token: withoutAppleID) == 403)   // the registry of version 2 is kept
            #expect(try await client.notify(token: subscribed) == 200)
            let answer = try await client.verify(Synthetic.body(Story.receipt))
            #expect((answer["latest_receipt_info"] as? [[String: String]])?.first?["in_app_ownership_type"] == "PURCHASED")
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 1, transactions: 1, notifications: 1))
    }
}

extension TestDatabase.Backend {
    var dialect: SQLDialect { self == .sqlite ? .sqlite : .postgres }
}
