import ReceiptService

extension StartupOptions {
    /// `--retention-message` values → the messages by bundle id; a value that is not
    /// `BUNDLE_ID=MESSAGE_UUID[:PRODUCT_ID]`, or a second one for an app, stops start-up.
    static func retentionMessages(_ values: [String]) throws(ConfigurationError) -> RetentionMessages {
        do {
            return try RetentionMessages(options: values)
        } catch {
            throw .invalidValue("retention-message", error.value)
        }
    }
}
