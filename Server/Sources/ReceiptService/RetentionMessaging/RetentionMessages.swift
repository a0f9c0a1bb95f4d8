/// The configured retention messages by bundle id (`--retention-message`, repeatable).
public struct RetentionMessages: Sendable, Equatable {
    /// One message per bundle id.
    public let byBundleID: [String: RetentionMessage]

    /// No message for any app: every request answered so that Apple shows its default.
    public init() {
        byBundleID = [:]
    }

    /// Reads `BUNDLE_ID=MESSAGE_UUID[:PRODUCT_ID]` values; the first value that is not one, or
    /// names a bundle id a second time, is thrown.
    public init(options: [String]) throws(RetentionMessageOptionError) {
        var table: [String: RetentionMessage] = [:]
        for option in options {
            let (bundleID, message) = try Self.parse(option)
            guard table[bundleID] == nil else { throw RetentionMessageOptionError(value: option, reason: "a second message for \(bundleID)") }
            table[bundleID] = message
        }
        byBundleID = table
    }

    /// The message for `bundleID`, if one is configured.
    public func message(for bundleID: String) -> RetentionMessage? {
        byBundleID[bundleID]
    }

    static func parse(_ option: String) throws(RetentionMessageOptionError) -> (String, RetentionMessage) {
        let parts = option.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, AppRegistry.isValidBundleID(parts[0]) else {
            throw RetentionMessageOptionError(value: option, reason: "expected BUNDLE_ID=MESSAGE_UUID[:PRODUCT_ID]")
        }
        let value = parts[1].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let message = RetentionMessage(messageIdentifier: String(value[0]), alternateProductID: value.count == 2 ? String(value[1]) : nil)
        else {
            throw RetentionMessageOptionError(value: option, reason: "expected a message UUID, then optionally :PRODUCT_ID")
        }
        return (String(parts[0]), message)
    }
}

/// A `--retention-message` value that is not `BUNDLE_ID=MESSAGE_UUID[:PRODUCT_ID]`.
public struct RetentionMessageOptionError: Error, Sendable, Equatable {
    /// The value as given.
    public let value: String
    /// What is wrong with it.
    public let reason: String
}
