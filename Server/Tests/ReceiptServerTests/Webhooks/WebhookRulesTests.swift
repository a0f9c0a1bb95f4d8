import Foundation
import ReceiptService
import ReceiptStore
import Testing

/// The rules of outgoing webhooks, each on its own: the Standard Webhooks signature, the secret's
/// form, endpoint URLs, durations and retry schedules, the event body.
@Suite struct WebhookRulesTests {
    typealias F = SignedDataFixtures

    /// The Standard Webhooks example (standard-webhooks/standard-webhooks, spec and its libraries'
    /// tests): secret `whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw`, id `msg_p5jXN8AQM9LWM0D4loKWxJek`,
    /// timestamp 1614265330, body `{"test": 2432232314}`; the value PyPI standardwebhooks 1.1.0
    /// computes for it.
    @Test func signatureMatchesTheSpecificationsExample() throws {
        let secret = try #require(Data(base64Encoded: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        let signature = WebhookSignature.signature(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: #"{"test": 2432232314}"#, secret: Array(secret))
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        let headers = WebhookSignature.headers(id: "msg_1", timestamp: 5, body: "{}", secret: Array(secret))
        #expect(headers.map(\.name) == ["webhook-id", "webhook-timestamp", "webhook-signature"])
        #expect(headers[1].value == "5")
        // Any change of id, timestamp or body changes the signature.
        let base = WebhookSignature.signature(id: "a", timestamp: 1, body: "b", secret: [1])
        #expect(WebhookSignature.signature(id: "A", timestamp: 1, body: "b", secret: [1]) != base)
        #expect(WebhookSignature.signature(id: "a", timestamp: 2, body: "b", secret: [1]) != base)
        #expect(WebhookSignature.signature(id: "a", timestamp: 1, body: "B", secret: [1]) != base)
        #expect(WebhookSignature.signature(id: "a", timestamp: 1, body: "b", secret: [2]) != base)
    }

    /// `whsec_` and the standard base64 of 32 random bytes, different each time.
    @Test func secretsAreWhsecBase64OfThirtyTwoBytes() throws {
        let a = WebhookSecret.generate(), b = WebhookSecret.generate()
        #expect(a.bytes.count == 32 && a.bytes != b.bytes)
        #expect(a.text.hasPrefix("whsec_"))
        #expect(Data(base64Encoded: String(a.text.dropFirst(6))).map(Array.init) == a.bytes)
    }

    /// http and https URLs with a host; no other scheme, no credentials, no fragment, no
    /// whitespace, not too long (RFC 3986 §3).
    @Test func endpointURLs() {
        for good in ["http://127.0.0.1:8080/hook", "https://hooks.example.com/a?b=c", "HTTPS://example.com", "http://[::1]:9/x"] {
            #expect(throws: Never.self) { try WebhookURL.checked(good) }
        }
        let refused: [(String, WebhookURL.Refusal)] = [
            ("ftp://example.com/x", .scheme("ftp")), ("file:///etc/passwd", .scheme("file")), ("javascript:alert(1)", .scheme("javascript")),
            ("/relative", .scheme("")), ("https://user:pass@example.com/", .credentials), ("https://user@example.com/", .credentials),
            ("https:///path", .noHost), ("https://example.com/#x", .fragment), ("https://exa mple.com/", .malformed),
            ("https://example.com/\n", .malformed), ("https://example.com/" + String(repeating: "a", count: 2048), .tooLong),
        ]
        for (url, refusal) in refused {
            #expect(throws: refusal, "\(url)") { try WebhookURL.checked(url) }
        }
    }

    /// Durations with a unit (or bare seconds), more than 0; schedules of them.
    @Test func durationsAndSchedules() throws {
        #expect(try WebhookDuration.milliseconds("1500ms") == 1500)
        #expect(try WebhookDuration.milliseconds("10s") == 10_000)
        #expect(try WebhookDuration.milliseconds("10") == 10_000)
        #expect(try WebhookDuration.milliseconds("5m") == 300_000)
        #expect(try WebhookDuration.milliseconds("2h") == 7_200_000)
        #expect(try WebhookDuration.milliseconds("1d") == 86_400_000)
        for bad in ["", "0s", "-1s", "1.5s", "1w", "s", "１s", "99999999999999999999d"] {
            #expect(throws: WebhookDurationError.malformed(bad)) { try WebhookDuration.milliseconds(bad) }
        }
        let schedule = try WebhookRetrySchedule("1s,2s,4s")
        #expect(schedule.delays == [1000, 2000, 4000] && schedule.attempts == 4)
        #expect(throws: WebhookDurationError.malformed("")) { try WebhookRetrySchedule("1s,,2s") }
        #expect(throws: WebhookDurationError.outOfRange("8d")) { try WebhookRetrySchedule("8d") }
        #expect(throws: WebhookDurationError.tooMany(51)) { try WebhookRetrySchedule(Array(repeating: "1s", count: 51).joined(separator: ",")) }
        #expect(try WebhookRetrySchedule(WebhookRetrySchedule.standardText) == .standard)
        #expect(WebhookRetrySchedule.standard.delays.reduce(0, +) > 3 * 86_400_000 - 1)
    }

    /// Exponential backoff with ±20 % jitter: each retry within its band; none after the last.
    @Test func retriesFollowTheScheduleWithJitter() throws {
        let schedule = try WebhookRetrySchedule("1s,2s,4s")
        #expect(schedule.nextAttempt(after: 1, now: 0) { 0 } == 800)
        #expect(schedule.nextAttempt(after: 1, now: 0) { 0.5 } == 1000)
        #expect(schedule.nextAttempt(after: 3, now: 10) { 0.999_999 }.map { $0 > 4_799 && $0 <= 4_810 } == true)
        #expect(schedule.nextAttempt(after: 4, now: 0) { 0.5 } == nil)
        #expect(schedule.nextAttempt(after: 0, now: 0) { 0.5 } == nil)
    }

    /// The body: every member in order, null where absent, the token byte for byte; status is
    /// Apple's rule at the event's signed date; ids are stable per cause.
    @Test func eventBody() throws {
        let transaction = F.transaction("9001", original: "9000", signed: 1_700_000_000_002, token: "3f1b1a5e-0000-4000-8000-000000000001")
        let notification = F.notification(
            "uuid-body", type: "DID_RENEW", subtype: "BILLING_RECOVERY", signed: 1_700_000_000_000, transaction: transaction)
        let event = WebhookEvent.make(notification: notification)
        #expect(event.id == WebhookEvent.make(notification: notification).id)
        #expect(event.id != WebhookEvent.make(notification: F.notification("uuid-other")).id)
        #expect(event.id.hasPrefix("evt_") && event.id.count == 36)
        let keys = [
            "id", "type", "subtype", "environment", "bundleId", "notificationUUID", "signedDate", "originalTransactionId", "transactionId",
            "productId", "appAccountToken", "status", "expiresDate", "signedPayload",
        ]
        #expect(event.body.hasPrefix(#"{"id":"\#(event.id)","type":"DID_RENEW","subtype":"BILLING_RECOVERY","environment":"Production""#))
        let object = try JSONAnswer.object(Data(event.body.utf8))
        #expect(Set(object.keys) == Set(keys))
        #expect(object["signedPayload"] as? String == "payload.uuid-body")
        #expect(object["transactionId"] as? String == "9001" && object["originalTransactionId"] as? String == "9000")
        #expect(object["appAccountToken"] as? String == "3f1b1a5e-0000-4000-8000-000000000001")
        // expires = purchase + 2 ms, after the signed date; the even signed date means no revocation: active.
        #expect(object["expiresDate"] as? Int == 1_700_000_000_002)
        #expect(object["status"] as? Int == 1)
        let bare = try JSONAnswer.object(Data(WebhookEvent.make(notification: F.notification("uuid-bare", type: "TEST")).body.utf8))
        for key in ["subtype", "transactionId", "status", "expiresDate", "appAccountToken"] { #expect(bare[key] is NSNull, "\(key)") }
        // A revoked transaction (odd signed date in the fixture) is 5.
        let revoked = F.transaction("9002", original: "9000", signed: 1_700_000_000_001)
        let status = try JSONAnswer.object(
            Data(WebhookEvent.make(notification: F.notification("uuid-r", signed: 1_700_000_000_001, transaction: revoked)).body.utf8))
        #expect(status["status"] as? Int == 5)
    }
}
