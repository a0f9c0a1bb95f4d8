/// Schema version 14: delivered webhook deliveries are pruned after the operator's retention
/// (`--webhook-retention`), oldest first, by `webhook_deliveries_delivered`; their events go with
/// the last of their deliveries.
enum WebhookRetentionSchema {
    static let migration = Migration(version: 14, name: "webhook_deliveries_delivered") { _ in
        ["CREATE INDEX webhook_deliveries_delivered ON webhook_deliveries (delivered_ms) WHERE state = 'delivered'"]
    }
}
