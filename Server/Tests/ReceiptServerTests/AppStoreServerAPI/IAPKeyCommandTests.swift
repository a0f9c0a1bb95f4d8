import Crypto
import Foundation
import Logging
import ReceiptService
import ReceiptStore
import Testing

/// `receipt-server iapkey add|list|revoke` run as processes on both backends: the `.p8` App Store
/// Connect gives or a PEM public key in, JSON out, only the public key stored, revocation seen
/// by an authenticator over the same database.
@Suite(.serialized) struct IAPKeyCommandTests {
    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapkey-\(UUID().uuidString).p8").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The SHA-256 of the key's DER SubjectPublicKeyInfo, as `openssl pkey -pubout -outform DER | openssl sha256`.
    static func fingerprint(_ key: P256.Signing.PublicKey) -> String {
        Crypto.SHA256.hash(data: key.derRepresentation).map { String(format: "%02x", $0) }.joined()
    }

    @Test(arguments: TestDatabase.backends)
    func addListRevoke(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await LiveServer.createDatabase(database)
        let signer = APIJWTSigner()
        let p8 = try Self.file(signer.key.pemRepresentation)
        #expect(signer.key.pemRepresentation.hasPrefix("-----BEGIN PRIVATE KEY-----"))

        let added = try await CommandLineRegistry.run(
            database,
            ["iapkey", "add", signer.keyID, "--issuer", signer.issuerID, "--key", p8, "--app", "com.example.b", "--app", "com.example.a"])
        #expect(added["keyId"] as? String == signer.keyID && added["issuerId"] as? String == signer.issuerID)
        #expect(added["apps"] as? [String] == ["com.example.a", "com.example.b"])
        #expect(added["publicKeySha256"] as? String == Self.fingerprint(signer.key.publicKey))
        #expect(added["created"] is String && added["revoked"] == nil)

        var second = APIJWTSigner()
        second.keyID = "PUBLICONLY"
        let publicPEM = try Self.file(second.key.publicKey.pemRepresentation)
        let public2 = try await CommandLineRegistry.run(database, ["iapkey", "add", second.keyID, "--issuer", "issuer-2", "--key", publicPEM])
        #expect(public2["apps"] as? [String] == [] && public2["publicKeySha256"] as? String == Self.fingerprint(second.key.publicKey))

        let list = try await CommandLineRegistry.list(database, ["iapkey", "list"])
        #expect(list.map { $0["keyId"] as? String } == [signer.keyID, second.keyID])

        // Only the public key is stored or printed.
        let privateKey = [UInt8](signer.key.rawRepresentation)
        let everything = try await Self.storedBytes(database)
        #expect(Self.contains(everything, [UInt8](signer.key.publicKey.x963Representation)))
        #expect(!Self.contains(everything, privateKey))
        let outputs = try await LiveServer.run(["iapkey", "list", "--database", database.url]).output
        let pemBody = signer.key.pemRepresentation.split(separator: "\n").dropFirst().dropLast().joined()
        #expect(!outputs.contains(pemBody) && !outputs.contains(Data(privateKey).base64EncodedString()))

        // An authenticator over the database accepts the key's tokens until the command revokes it.
        try await Stores.with(DatabaseLocation(database.url), secrets: TestSecrets.key, logger: TestServer.logger) { store in
            let authenticator = AppStoreAPIAuthenticator(store: store, registry: AppRegistry(), logger: Logger(label: "test"))
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let header = "Bearer " + (try signer.token(now: now, bundleID: "com.example.a"))
            #expect(await authenticator.authenticate(header, now: now) == AppStoreAPICaller(keyID: signer.keyID, bundleID: "com.example.a"))
            #expect(await authenticator.authenticate("Bearer " + (try signer.token(now: now, bundleID: "com.example.c")), now: now) == nil)
            let revoked = try await CommandLineRegistry.run(database, ["iapkey", "revoke", signer.keyID])
            #expect(revoked["keyId"] as? String == signer.keyID && revoked["revoked"] is String)
            #expect(await authenticator.authenticate(header, now: now + 1_000) == nil)
        }
        #expect(try await CommandLineRegistry.list(database, ["iapkey", "list"]).first?["revoked"] is String)
        let unknown = try await LiveServer.runForErrors(["iapkey", "revoke", "NOSUCHKEY", "--database", database.url])
        #expect(unknown.status == 1 && unknown.errors.contains("no In-App Purchase key NOSUCHKEY"))
    }

    /// Anything but an EC P-256 PKCS#8 private key or a PEM public key is refused with a message.
    @Test func otherKeyFilesAreRefused() async throws {
        let database = try await TestDatabase.make(.sqlite)
        try await LiveServer.createDatabase(database)
        let p384 = P384.Signing.PrivateKey()
        let cases: [(String, String)] = [
            (p384.pemRepresentation, "not an EC P-256 key"),
            (p384.publicKey.pemRepresentation, "not an EC P-256 key"),
            ("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n", "openssl pkcs8 -topk8"),
            ("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n", "encrypted"),
            ("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "only PRIVATE KEY"),
            ("-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n", "not an EC P-256 key"),
            ("just text", "not a PEM file"),
        ]
        for (text, message) in cases {
            let result = try await LiveServer.runForErrors([
                "iapkey", "add", "KEY1234567", "--issuer", "issuer", "--key", try Self.file(text), "--database", database.url,
            ])
            #expect(result.status == 1 && result.errors.contains(message), "\(message): \(result.errors)")
            #expect(!result.errors.contains("AAAA"))
        }
        let missing = try await LiveServer.runForErrors([
            "iapkey", "add", "KEY1234567", "--issuer", "issuer", "--key", "/nonexistent/key.p8", "--database", database.url,
        ])
        #expect(missing.status == 1 && missing.errors.contains("cannot read the key file /nonexistent/key.p8"))
        let good = try Self.file(P256.Signing.PrivateKey().pemRepresentation)
        for arguments in [
            ["bad id!", "--issuer", "issuer"], ["KEY1234567", "--issuer", "has space"], ["KEY1234567", "--issuer", "i", "--app", "bad bundle"],
        ] {
            let result = try await LiveServer.runForErrors(["iapkey", "add"] + arguments + ["--key", good, "--database", database.url])
            #expect(result.status == 1 && result.errors.contains("invalid"), "\(arguments)")
        }
        #expect(try await CommandLineRegistry.list(database, ["iapkey", "list"]).isEmpty)
    }

    /// The database's bytes: the SQLite file with its WAL, or PostgreSQL's rows as JSON (bytea as
    /// hex, so it is searched for the hex of the bytes).
    static func storedBytes(_ database: TestDatabase) async throws -> (raw: [UInt8], text: String) {
        if let path = database.sqlitePath {
            return (["", "-wal"].compactMap { FileManager.default.contents(atPath: path + $0) }.flatMap { [UInt8]($0) }, "")
        }
        return ([], try await CommandLineRegistry.everythingStored(database))
    }

    static func contains(_ stored: (raw: [UInt8], text: String), _ bytes: [UInt8]) -> Bool {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        if stored.text.contains(hex) { return true }
        guard stored.raw.count >= bytes.count else { return false }
        return (0 ... stored.raw.count - bytes.count).contains { stored.raw[$0 ..< $0 + bytes.count].elementsEqual(bytes) }
    }
}
