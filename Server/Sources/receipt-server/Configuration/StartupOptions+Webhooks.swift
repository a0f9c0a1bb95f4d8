import ReceiptService

extension StartupOptions {
    /// `--webhook-timeout` (a duration up to 5 minutes) and `--webhook-retry-schedule`; a value
    /// that does not parse stops start-up naming the option.
    static func webhooks(_ configuration: ServerConfiguration) throws(ConfigurationError) -> (Duration, WebhookRetrySchedule) {
        let timeout: Int64
        do {
            timeout = try WebhookDuration.milliseconds(configuration.webhookTimeout)
        } catch {
            throw .invalidValue("webhook-timeout", configuration.webhookTimeout)
        }
        guard timeout <= 300_000 else { throw .invalidValue("webhook-timeout", configuration.webhookTimeout) }
        do {
            return (.milliseconds(timeout), try WebhookRetrySchedule(configuration.webhookRetrySchedule))
        } catch {
            throw .invalidValue("webhook-retry-schedule", configuration.webhookRetrySchedule)
        }
    }

    /// `--webhook-retention`: a duration, or `0` for keeping delivered deliveries for ever (nil).
    static func webhookRetention(_ configuration: ServerConfiguration) throws(ConfigurationError) -> Duration? {
        guard configuration.webhookRetention != "0" else { return nil }
        do {
            return .milliseconds(try WebhookDuration.milliseconds(configuration.webhookRetention))
        } catch {
            throw .invalidValue("webhook-retention", configuration.webhookRetention)
        }
    }
}
