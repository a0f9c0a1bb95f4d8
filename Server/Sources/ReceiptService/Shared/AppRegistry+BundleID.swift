extension AppRegistry {
    /// A bundle id the registry takes: not empty, no whitespace, and no `=` or `@`, which
    /// `--app BUNDLE_ID[=SHARED_SECRET][@APPLE_ID]` uses as separators.
    public static func isValidBundleID(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && !text.contains(where: { $0.isWhitespace || $0 == "=" || $0 == "@" })
    }
}

extension AppRegistry {
    /// Whether the registry serves `bundleID` (`decision(for:)`: every bundle id while it is
    /// empty, else the apps it holds). The App Store Server API asks this of a token's `bid`, so
    /// that every surface serves the same apps.
    func serves(_ bundleID: String) -> Bool {
        decision(for: bundleID) != .notServed
    }
}
