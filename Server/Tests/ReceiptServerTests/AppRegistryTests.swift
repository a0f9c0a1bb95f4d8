@testable import ReceiptServer
import ReceiptService
import ReceiptStore
import Testing

/// The app registry: `--app BUNDLE_ID[=SHARED_SECRET][@APPLE_ID]` read into registrations, and
/// registrations kept by both backends.
@Suite struct AppRegistryTests {
    @Test func appOptionForms() throws {
        #expect(try StartupOptions.app("com.example.app") == AppRegistration(bundleID: "com.example.app", sharedSecretSHA256: nil))
        #expect(try StartupOptions.app("com.example.app@1234") == AppRegistration(bundleID: "com.example.app", sharedSecretSHA256: nil, appleID: 1234))
        let secret = AppRegistry.sharedSecretSHA256("s3cr3t")
        #expect(try StartupOptions.app("com.example.app=s3cr3t") == AppRegistration(bundleID: "com.example.app", sharedSecretSHA256: secret))
        #expect(try StartupOptions.app("com.example.app=s3cr3t@1234")
                == AppRegistration(bundleID: "com.example.app", sharedSecretSHA256: secret, appleID: 1234))
        // A secret may hold `@`: only digits after the last one are an Apple id.
        #expect(try StartupOptions.app("com.example.app=a@b")
                == AppRegistration(bundleID: "com.example.app", sharedSecretSHA256: AppRegistry.sharedSecretSHA256("a@b")))
        #expect(try StartupOptions.app("com.example.app=a@b@42")
                == AppRegistration(bundleID: "com.example.app", sharedSecretSHA256: AppRegistry.sharedSecretSHA256("a@b"), appleID: 42))
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
            AppRegistration(bundleID: "com.example.a", sharedSecretSHA256: AppRegistry.sharedSecretSHA256("x"), appleID: 9_876_543_210),
            AppRegistration(bundleID: "com.example.b", sharedSecretSHA256: nil),
        ]
        let stored = try await Stores.with(DatabaseLocation(database.url), logger: TestServer.logger) { store in
            try await store.register(apps)
            return try await store.apps()
        }
        #expect(stored == apps)
        // Registering again replaces: the Apple id can be removed or changed.
        let changed = [AppRegistration(bundleID: "com.example.a", sharedSecretSHA256: nil, appleID: 5)]
        let after = try await Stores.with(DatabaseLocation(database.url), logger: TestServer.logger) { store in
            try await store.register(changed)
            return try await store.apps()
        }
        #expect(after == changed + [apps[1]])
    }
}
