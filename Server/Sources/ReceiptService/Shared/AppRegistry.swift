import ReceiptStore
import Synchronization

/// The apps served, as the database's registry holds them (the `apps` table; `--app` flags are
/// written there at start-up, so every instance on one database serves the same apps). An empty
/// registry serves every bundle id. Requests read an in-memory snapshot; `RegistryRefresh`
/// reloads it periodically so changes made by other instances are picked up.
public final class AppRegistry: Sendable {
    /// What the registry says about a bundle id.
    enum Decision: Equatable {
        case notServed
        /// Served; `sharedSecretHash` (`SharedSecretHash`) when the app has a shared secret.
        case served(sharedSecretHash: [UInt8]?)
    }

    private let apps = Mutex<[String: AppRegistration]>([:])

    public init(_ registrations: [AppRegistration] = []) {
        replace(with: registrations)
    }

    /// Replaces the snapshot.
    public func replace(with registrations: [AppRegistration]) {
        let table = Dictionary(registrations.map { ($0.bundleID, $0) }, uniquingKeysWith: { _, last in last })
        apps.withLock { $0 = table }
    }

    func decision(for bundleID: String) -> Decision {
        apps.withLock { apps in
            if apps.isEmpty { return .served(sharedSecretHash: nil) }
            guard let app = apps[bundleID] else { return .notServed }
            return .served(sharedSecretHash: app.sharedSecretHash)
        }
    }

    /// The app's Apple id, when the registry holds the app with one (production notifications
    /// must name it as `appAppleId`).
    func appleID(for bundleID: String) -> Int64? {
        apps.withLock { $0[bundleID]?.appleID }
    }

    /// Whether the app answers production transaction receipts whose environment nothing signed
    /// proves (`AppRegistration.acceptsUnprovenLegacyProduction`); false for an app not
    /// registered, and for every app while the registry is empty.
    func acceptsUnprovenLegacyProduction(_ bundleID: String) -> Bool {
        apps.withLock { $0[bundleID]?.acceptsUnprovenLegacyProduction ?? false }
    }

    /// Whether `password` is the shared secret whose salted hash is `expected`
    /// (`SharedSecretHash.matches`: compared in constant time).
    static func matches(password: String?, expected: [UInt8]) -> Bool {
        SharedSecretHash.matches(password, stored: expected)
    }
}
