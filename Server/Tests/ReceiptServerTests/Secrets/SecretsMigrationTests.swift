import CryptoExtras
import Foundation
import GRDB
import HummingbirdTesting
import PostgresNIO
import ReceiptService
@testable import ReceiptStore
import Testing

/// Migration 5 on a database a version-4 server made (raw AES key, unsalted SHA-256 shared
/// secret): the key ends up sealed and the hash salted, and both still work: the encrypted answer
/// decrypts with the same app key, and the same shared secret is accepted.
@Suite struct SecretsMigrationTests {
    /// What the version-4 database holds for `Synthetic.bundleID`.
    struct Version4: Sendable {
        let encryptionKey: [UInt8]
        let secretSHA256: [UInt8]
        let token: String
        let apiKey: String
        static let secret = "s3cret-of-version-4"
    }

    /// Creates the schema as version 4 left it, with one app (shared secret, token, raw key) and
    /// one API key for every app, written as version 4 wrote them.
    static func makeVersion4(_ database: TestDatabase) async throws -> Version4 {
        let token = Credential.generate(.appToken), apiKey = Credential.generate(.apiKey)
        let key = (0 ..< 32).map { _ in UInt8.random(in: .min ... .max) }
        let secretSHA256 = Array(SHA256.hash(data: Array(Version4.secret.utf8)))
        let lit = { (bytes: [UInt8]) in SecretsInspect.literal(bytes, database.backend) }
        try await OlderSchema.make(
            database, version: 4,
            rows: [
                """
                INSERT INTO apps (bundle_id, shared_secret_sha256, apple_id, token_id, token_sha256, encryption_key)
                VALUES ('\(Synthetic.bundleID)', \(lit(secretSHA256)), NULL, '\(token.id)', \(lit(token.sha256)), \(lit(key)))
                """,
                "INSERT INTO api_keys (key_id, key_sha256, all_apps, created_ms, revoked_ms) VALUES ('\(apiKey.id)', \(lit(apiKey.sha256)), 1, 0, NULL)",
            ])
        return Version4(encryptionKey: key, secretSHA256: secretSHA256, token: token.text, apiKey: apiKey.text)
    }

    @Test(arguments: TestDatabase.backends)
    func upgradesAVersion4Database(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let old = try await Self.makeVersion4(database)
        #expect(try await SecretsInspect.holds(database, old.encryptionKey), "the raw key is there before the upgrade")
        #expect(Schema.latestVersion >= 5)

        try await TestServer.with(TestServer.configuration(database)) { client in
            // The shared secret of version 4 still gates subscriptions (21004 without it, or with another).
            try await client.expectStatus(0, Synthetic.body(StatusTests.subscription, password: Version4.secret))
            try await client.expectStatus(21004, Synthetic.body(StatusTests.subscription, password: "another"))
            try await client.expectStatus(21004, Synthetic.body(StatusTests.subscription))
            // The encrypted answer opens with the app key version 4 handed out.
            let reply = try await client.hosted(
                HostedSetup.form(apiKey: old.apiKey, token: old.token, receipt: StatusTests.subscription),
                encrypted: true)
            #expect(reply.code == 200 && reply.status == 0)
            let sealed = try #require((reply.object["encrypted"] as? String).flatMap { Data(base64Encoded: $0) })
            let opened = try AES._CBC.decrypt(
                sealed.dropFirst(16), using: SymmetricKey(data: old.encryptionKey),
                iv: AES._CBC.IV(ivBytes: sealed.prefix(16)))
            #expect(try JSONAnswer.object(opened)["status"] as? Int == 0)
        }

        let row = try #require(try await SecretsInspect.app(database, Synthetic.bundleID))
        #expect(row.encryptionKey == nil && row.sharedSecretSHA256 == nil, "the old columns are emptied")
        let sealedKey = try #require(row.sealedEncryptionKey)
        #expect(try TestSecrets.key.openEncryptionKey(sealedKey, bundleID: Synthetic.bundleID) == old.encryptionKey)
        #expect(SharedSecretHash.matches(Version4.secret, stored: try #require(row.sharedSecretHash)))
        #expect(!(try await SecretsInspect.holds(database, old.encryptionKey)), "the raw key is gone from the database's files")
        #expect(!(try await SecretsInspect.holds(database, old.secretSHA256)), "so is the unsalted hash")
        // Applied once: a second start changes nothing and still opens the key.
        try await TestServer.with(TestServer.configuration(database)) { client in
            try await client.expectStatus(0, Synthetic.body(StatusTests.subscription, password: Version4.secret))
        }
        #expect(try await SecretsInspect.app(database, Synthetic.bundleID) == row)
    }
}
