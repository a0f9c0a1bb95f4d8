import CryptoExtras
import Foundation
import HummingbirdTesting
import Logging
@testable import ReceiptServer
@testable import receipt_server
import ReceiptService
import ReceiptStore
import Testing

/// The operator's secrets key: its encodings, AES-256-GCM bound to the bundle id, the key check
/// value, where the server finds the key, and a wrong key stopping the server at start.
@Suite struct SecretsKeyTests {
    @Test func encodings() throws {
        let bytes = (0 ..< 32).map { UInt8($0) }
        let raw = try SecretsKey(encoded: bytes)
        let base64 = try SecretsKey(encoded: Array((Data(bytes).base64EncodedString() + "\n").utf8))
        #expect(raw.base64 == Data(bytes).base64EncodedString() && base64.base64 == raw.base64)
        // Raw bytes count only when they are 32; anything else is read as base64.
        #expect(throws: SecretsKeyError.notBase64) { try SecretsKey(encoded: Array(bytes.prefix(31))) }
        #expect(throws: SecretsKeyError.wrongLength(31)) { try SecretsKey(encoded: Array(Data(bytes.prefix(31)).base64EncodedString().utf8)) }
        #expect(throws: SecretsKeyError.wrongLength(24)) { try SecretsKey(base64: Data(bytes.prefix(24)).base64EncodedString()) }
        #expect(throws: SecretsKeyError.notBase64) { try SecretsKey(base64: "not a key!") }
        #expect(SecretsKey.generate().base64 != SecretsKey.generate().base64)
    }

    @Test func sealedKeysAreBoundToTheBundleIDAndTheOperatorKey() throws {
        let key = SecretsKey.generate(), appKey = (0 ..< 32).map { _ in UInt8.random(in: .min ... .max) }
        let sealed = try key.sealEncryptionKey(appKey, bundleID: "com.example.a")
        #expect(sealed.count == 12 + 32 + 16 && !Array(sealed).contains(subsequence: appKey))
        #expect(try key.openEncryptionKey(sealed, bundleID: "com.example.a") == appKey)
        #expect(try key.sealEncryptionKey(appKey, bundleID: "com.example.a") != sealed, "a fresh nonce each time")
        #expect(throws: (any Error).self) { try key.openEncryptionKey(sealed, bundleID: "com.example.b") }
        #expect(throws: (any Error).self) { try SecretsKey.generate().openEncryptionKey(sealed, bundleID: "com.example.a") }
        var tampered = sealed
        tampered[20] ^= 1
        #expect(throws: (any Error).self) { try key.openEncryptionKey(tampered, bundleID: "com.example.a") }

        let check = try key.makeCheckValue()
        #expect(key.recognizes(checkValue: check) && !SecretsKey.generate().recognizes(checkValue: check))
        #expect(!key.recognizes(checkValue: sealed) && !key.recognizes(checkValue: []))
    }

    @Test func saltedSharedSecrets() {
        let a = SharedSecretHash.make("same secret"), b = SharedSecretHash.make("same secret")
        #expect(a != b && a.count == 49 && a[0] == 1, "a new salt per registration")
        #expect(SharedSecretHash.matches("same secret", stored: a) && SharedSecretHash.matches("same secret", stored: b))
        #expect(!SharedSecretHash.matches("same secreT", stored: a) && !SharedSecretHash.matches("", stored: a))
        #expect(!SharedSecretHash.matches(nil, stored: a))
        // A row of version 4 (the unsalted SHA-256) salted by migration 5 verifies the same secret.
        let legacy = SecretsKey.generate().saltedSharedSecretHash(fromSHA256: Array(SHA256.hash(data: Array("old".utf8))))
        #expect(SharedSecretHash.matches("old", stored: legacy) && !SharedSecretHash.matches("new", stored: legacy))
        // Another layout byte, or a truncated value, never matches.
        var other = a
        other[0] = 2
        #expect(!SharedSecretHash.matches("same secret", stored: other) && !SharedSecretHash.matches("same secret", stored: Array(a.dropLast())))
    }

    @Test func whereTheKeyComesFrom() throws {
        let folder = try Self.folder()
        var configuration = ServerConfiguration()
        configuration.database = "sqlite:" + folder + "/data.sqlite"
        let logger = TestServer.logger

        // Nothing given: a key file beside the database, generated 0600, then found again.
        let first = try SecretsKeySource.load(configuration, environment: [:], logger: logger)
        let generated = folder + "/data.secrets-key"
        #expect(try first.generatedFile == generated && SecretsInspect.mode(generated) == 0o600)
        let again = try SecretsKeySource.load(configuration, environment: [:], logger: logger)
        #expect(again.generatedFile == nil && again.key.base64 == first.key.base64)

        // The environment wins over the file beside the database; --secrets-key-file over both.
        let other = SecretsKey.generate()
        let fromEnvironment = try SecretsKeySource.load(
            configuration, environment: [SecretsKeySource.environmentVariable: other.base64], logger: logger)
        #expect(fromEnvironment.key.base64 == other.base64)
        configuration.secretsKeyFile = TestSecrets.keyFile
        let fromFile = try SecretsKeySource.load(configuration, environment: [SecretsKeySource.environmentVariable: other.base64], logger: logger)
        #expect(fromFile.key.base64 == TestSecrets.key.base64)

        // A raw 32-byte file; files and variables that are not keys, named without their contents.
        let raw = folder + "/raw.key"
        _ = FileManager.default.createFile(atPath: raw, contents: Data((0 ..< 32).map { UInt8($0) }), attributes: [.posixPermissions: 0o600])
        configuration.secretsKeyFile = raw
        #expect(
            try SecretsKeySource.load(configuration, environment: [:], logger: logger).key.base64
                == Data((0 ..< 32).map { UInt8($0) }).base64EncodedString())
        let short = folder + "/short.key"
        _ = FileManager.default.createFile(atPath: short, contents: Data("c2hvcnQ=".utf8), attributes: [.posixPermissions: 0o600])
        configuration.secretsKeyFile = short
        #expect(throws: ConfigurationError.invalidSecretsKey(source: short, reason: SecretsKeyError.wrongLength(5).description)) {
            _ = try SecretsKeySource.load(configuration, environment: [:], logger: logger)
        }
        configuration.secretsKeyFile = nil
        let badVariable = #expect(throws: ConfigurationError.self) {
            _ = try SecretsKeySource.load(configuration, environment: [SecretsKeySource.environmentVariable: "hunter2hunter2"], logger: logger)
        }
        #expect(
            badVariable?.description.contains(SecretsKeySource.environmentVariable) == true && badVariable?.description.contains("hunter2") == false)

        // A key file others may read is refused, with the fix.
        let exposed = folder + "/exposed.key"
        _ = FileManager.default.createFile(atPath: exposed, contents: Data(other.base64.utf8), attributes: [.posixPermissions: 0o644])
        configuration.secretsKeyFile = exposed
        #expect(throws: ConfigurationError.exposedSecretsKey(path: exposed, mode: 0o644)) {
            _ = try SecretsKeySource.load(configuration, environment: [:], logger: logger)
        }
        #expect(ConfigurationError.exposedSecretsKey(path: exposed, mode: 0o644).description.contains("chmod 600 \(exposed)"))

        // PostgreSQL has no place for a generated key: one must be given.
        configuration.secretsKeyFile = nil
        configuration.database = "postgres://receipts@127.0.0.1:5432/receipts"
        let missing = #expect(throws: ConfigurationError.self) { _ = try SecretsKeySource.load(configuration, environment: [:], logger: logger) }
        #expect(
            missing?.description.contains("--secrets-key-file") == true && missing?.description.contains(SecretsKeySource.environmentVariable) == true
        )
    }

    @Test func defaultFileNames() {
        #expect(SecretsKeySource.defaultFile(forDatabase: "./receipt-server.sqlite") == "./receipt-server.secrets-key")
        #expect(SecretsKeySource.defaultFile(forDatabase: "/var/db/receipts") == "/var/db/receipts.secrets-key")
        #expect(SecretsKeySource.defaultFile(forDatabase: "/var/db.d/.hidden") == "/var/db.d/.hidden.secrets-key")
    }

    /// A database set up under one key does not start under another: the server stops at start
    /// with a message naming the options, and nothing is changed.
    @Test(arguments: TestDatabase.backends)
    func wrongKeyStopsTheServerAtStart(_ backend: TestDatabase.Backend) async throws {
        let setup = try await HostedSetup.make(backend)
        let folder = try Self.folder()
        let otherFile = folder + "/other.key"
        _ = FileManager.default.createFile(
            atPath: otherFile, contents: Data(SecretsKey.generate().base64.utf8), attributes: [.posixPermissions: 0o600])
        var configuration = TestServer.configuration(setup.database)
        configuration.secretsKeyFile = otherFile
        let error = await #expect(throws: StoreError.self) { _ = try await ServerApplication.make(configuration, logger: TestServer.logger) }
        #expect(error?.description.contains("--secrets-key-file") == true)
        try await TestServer.with(TestServer.configuration(setup.database)) { client in
            let reply = try await client.hosted(
                HostedSetup.form(apiKey: setup.key, token: setup.token, receipt: StatusTests.subscription), encrypted: true)
            #expect(reply.status == 0)
        }
    }

    /// The executable: with no key given, a new SQLite database (made by the server's first
    /// start) gets a generated key file (with a warning) that later commands find; a database
    /// sealed under another key is refused, and the key file generated for nothing is removed
    /// again; PostgreSQL without a key is refused.
    @Test func commandsFindOrRefuseTheKey() async throws {
        let folder = try Self.folder()
        let database = "sqlite:" + folder + "/cli.sqlite"
        let bare = TestSecrets.environmentWithoutKey
        let server = try await LiveServer.start(["--database", database], environment: bare)
        #expect(server.terminate() == 0)
        #expect(server.logText.contains("development setup"), "\(server.logText)")
        #expect(try SecretsInspect.mode(folder + "/cli.secrets-key") == 0o600)
        let first = try await LiveServer.runForErrors(["app", "add", "com.example.a", "--encryption-key", "--database", database], environment: bare)
        #expect(first.status == 0 && !first.errors.contains("generated"), "\(first.errors)")
        let second = try await LiveServer.runForErrors(["app", "list", "--database", database], environment: bare)
        #expect(second.status == 0 && !second.errors.contains("generated"))

        let other = try await TestDatabase.make(.sqlite)
        try await LiveServer.createDatabase(other)   // the tests' key
        _ = try await LiveServer.run(["app", "add", "com.example.a", "--encryption-key", "--database", other.url])   // the tests' key
        let refused = try await LiveServer.runForErrors(["stats", "--database", other.url], environment: bare)
        #expect(refused.status != 0 && refused.errors.contains("secrets key is not the one"), "\(refused.errors)")
        let otherPath = try #require(other.sqlitePath)
        #expect(!FileManager.default.fileExists(atPath: SecretsKeySource.defaultFile(forDatabase: otherPath)))
        // The right key as a flag, or as the configuration file's key.
        #expect(
            try await LiveServer.runForErrors(["stats", "--database", other.url, "--secrets-key-file", TestSecrets.keyFile], environment: bare).status
                == 0)
        let config = folder + "/config.json"
        try JSONSerialization.data(withJSONObject: ["database": other.url, "secrets-key-file": TestSecrets.keyFile]).write(
            to: URL(fileURLWithPath: config))
        #expect(try ServerConfiguration(configFile: config).secretsKeyFile == TestSecrets.keyFile)
        #expect(try await LiveServer.runForErrors(["stats", "--config", config], environment: bare).status == 0)

        if TestDatabase.postgresAvailable {
            let postgres = try await TestDatabase.make(.postgres)
            let noKey = try await LiveServer.runForErrors(["stats", "--database", postgres.url], environment: bare)
            #expect(noKey.status != 0 && noKey.errors.contains(SecretsKeySource.environmentVariable), "\(noKey.errors)")
        }
    }

    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }
}
