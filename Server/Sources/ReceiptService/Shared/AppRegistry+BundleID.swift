extension AppRegistry {
    /// A bundle id the registry takes: not empty, no whitespace, and no `=` or `@`, which
    /// `--app BUNDLE_ID[=SHARED_SECRET][@APPLE_ID]` uses as separators.
    public static func isValidBundleID(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && !text.contains(where: { $0.isWhitespace || $0 == "=" || $0 == "@" })
    }
}
