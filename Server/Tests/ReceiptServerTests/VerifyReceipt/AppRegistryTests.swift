@testable import ReceiptServer
@testable import receipt_server
import ReceiptService
import ReceiptStore
import Testing

/// The app registry: `--app BUNDLE_ID[=SHARED_SECRET][@APPLE_ID]` read into registrations, and
/// registrations kept by both backends.
@Suite struct AppRegistryTests {
    @Test func appOptionForms() throws {
        #expect(try StartupOptions.app("com.example.app") == AppRegistration(bundleID: "com.example.app", sharedSecretHash: nil))
        #expect(try StartupOptions.app("com.example.app@1234") == AppRegistration(bundleID: "com.example.app", sharedSecretHash: nil, appleID: 1234))
        try Self.expect(StartupOptions.app("com.example.app=s3cr3t"), secret: "s3cr3t", appleID: nil)
        try Self.expect(StartupOptions.app("com.example.app=s3cr3t@1234"), secret: "s3cr3t", appleID: 1234)
        // A secret may hold `@`: only digits after the last one are an Apple id.
        try Self.expect(StartupOptions.app("com.example.app=a@b"), secret: "a@b", appleID: nil)
        try Self.expect(StartupOptions.app("com.example.app=a@b@42"), secret: "a@b", appleID: 42)
    }

    /// `registration` is com.example.app with a salted hash of `secret` (and of nothing else).
    static func expect(_ registration: AppRegistration, secret: String, appleID: Int64?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(registration.bundleID == "com.example.app" && registration.appleID == appleID, sourceLocation: sourceLocation)
        let hash = registration.sharedSecretHash ?? []
        #expect(SharedSecretHash.matches(secret, stored: hash), sourceLocation: sourceLocation)
        #expect(
            !SharedSecretHash.matches(secret + "x", stored: hash) && !SharedSecretHash.matches(nil, stored: hash),
            sourceLocation: sourceLocation)
    }

    @Test(arguments: ["", "=secret", "com.example.app=", "com.example.app=@12", "com example", "com.example@x", "@12", "com.example.app@0"])
    func invalidAppOptions(_ text: String) {
        #expect(throws: ConfigurationError.self) { _ = try StartupOptions.app(text) }
    }

    @Test func errorsNeverShowTheSecret() {
        let error = #expect(throws: ConfigurationError.self) { _ = try StartupOptions.app("com.example.app=") }
        #expect(error?.description.contains("com.example.app") == true)
        let secretError = #expect(throws: ConfigurationError.self) { _ = try StartupOptions.app("bad bundle=hunter2") }
        #expect(secretError?.description.contains("hunter2") == false)
    }

    @Test(arguments: TestDatabase.backends)
    func registrationsRoundTrip(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let apps = [
            AppRegistration(bundleID: "com.example.a", sharedSecretHash: SharedSecretHash.make("x"), appleID: 9_876_543_210),
            AppRegistration(bundleID: "com.example.b", sharedSecretHash: nil),
        ]
        let stored = try await Stores.with(DatabaseLocation(database.url), secrets: TestSecrets.key, logger: TestServer.logger) { store in
            try await store.register(apps)
            return try await store.apps()
        }
        #expect(stored == apps)
        // Registering again replaces: the Apple id can be removed or changed.
        let changed = [AppRegistration(bundleID: "com.example.a", sharedSecretHash: nil, appleID: 5)]
        let after = try await Stores.with(DatabaseLocation(database.url), secrets: TestSecrets.key, logger: TestServer.logger) { store in
            try await store.register(changed)
            return try await store.apps()
        }
        #expect(after == changed + [apps[1]])
    }
}
