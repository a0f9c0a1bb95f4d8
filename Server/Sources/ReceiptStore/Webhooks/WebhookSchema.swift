/// Schema version 11: the outbox of outgoing webhooks (issue 38).
///
/// - `webhook_endpoints`: where events go: a URL for one app, optionally one environment and a
///   list of event types (`,A,B,`: nil for every type), and the endpoint's signing secret sealed
///   under the operator's secrets key (AES-256-GCM, the endpoint id as associated data).
/// - `webhook_events`: each event once, by its id (stable: derived from what caused it, so a
///   notification stored twice or a redelivery keeps its `webhook-id`), with its body exactly as
///   it is signed and sent. Written in the transaction that stores the notification or posted
///   transaction causing it, so nothing acknowledged is lost.
/// - `webhook_deliveries`: one row per (event, endpoint): `pending` until a 2xx (`delivered`) or
///   the last attempt of the schedule (`failed`), due at `next_attempt_ms`. `attempts` counts
///   claims; a claim sets `leased_until_ms`, so that no other process claims the row meanwhile
///   and a process that dies mid-delivery leaves it due again once the lease ends (SQLite, one
///   process, releases its leases at start); an outcome is written only for the attempt it
///   belongs to.
enum WebhookSchema {
    static let migration = Migration(version: 11, name: "webhook_endpoints, webhook_events, webhook_deliveries") { d in
        [
            """
            CREATE TABLE webhook_endpoints (
                id TEXT PRIMARY KEY,
                url TEXT NOT NULL,
                bundle_id TEXT NOT NULL,
                environment TEXT,
                events TEXT,
                sealed_secret \(d.bytes) NOT NULL,
                created_ms \(d.int64) NOT NULL
            )
            """,
            """
            CREATE TABLE webhook_events (
                id TEXT PRIMARY KEY,
                bundle_id TEXT NOT NULL,
                environment TEXT NOT NULL,
                type TEXT NOT NULL,
                body TEXT NOT NULL,
                created_ms \(d.int64) NOT NULL
            )
            """,
            """
            CREATE TABLE webhook_deliveries (
                event_id TEXT NOT NULL,
                endpoint_id TEXT NOT NULL,
                state TEXT NOT NULL,
                attempts \(d.int64) NOT NULL,
                next_attempt_ms \(d.int64) NOT NULL,
                leased_until_ms \(d.int64),
                last_status \(d.int64),
                last_error TEXT,
                delivered_ms \(d.int64),
                created_ms \(d.int64) NOT NULL,
                PRIMARY KEY (event_id, endpoint_id)
            )
            """,
            "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_ms) WHERE state = 'pending'",
            "CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (created_ms) WHERE state = 'failed'",
        ]
    }
}
