import AsyncHTTPClient
import Foundation
import NIOCore
import GRDB
import HummingbirdTesting
@testable import ReceiptService
import Testing

/// The rate limit per API key, and where the keys' plaintext must never appear.
@Suite struct HostedAbuseTests {
    /// A burst of 40 concurrent requests with a bucket of 5 refilled at 1 a second: at most 5 plus
    /// one per elapsed second get through, the rest get HTTP 429 with `Retry-After`; another key's
    /// bucket is its own.
    @Test func rateLimitHoldsUnderABurst() async throws {
        let setup = try await HostedSetup.make(.sqlite)
        var configuration = TestServer.configuration(setup.database)
        configuration.keyRate = 1
        configuration.keyBurst = 5
        try await TestServer.withMetrics(configuration) { client, metrics in
            let body = HostedSetup.form(apiKey: setup.key, token: setup.token, receipt: StatusTests.consumable)
            let start = ContinuousClock.now
            let replies = try await withThrowingTaskGroup(of: HostedReply.self) { group in
                for _ in 0 ..< 40 { group.addTask { try await client.hosted(body) } }
                return try await group.reduce(into: [HostedReply]()) { $0.append($1) }
            }
            let elapsed = (ContinuousClock.now - start).components.seconds + 1
            let passed = replies.filter { $0.code == 200 }
            let limited = replies.filter { $0.code == 429 }
            #expect(passed.count + limited.count == 40)
            #expect(passed.count >= 5 && passed.count <= 5 + Int(elapsed), "\(passed.count) passed in \(elapsed) s")
            #expect(passed.allSatisfy { $0.status == 0 })
            #expect(limited.allSatisfy { $0.status == 429 && Int($0.retryAfter ?? "") ?? 0 >= 1 })
            let other = try await client.hosted(
                HostedSetup.form(
                    apiKey: setup.otherKey, token: setup.otherToken,
                    receipt: HostedStatusTests.otherApp))
            #expect(other.code == 200 && other.status == 0)
            #expect(try await metrics.text().contains("receipt_server_hosted_rate_limited_total \(limited.count)"))
        }
    }

    /// The bucket itself, on a clock the test moves: a burst, then the rate.
    @Test func tokenBucketRefillsAtTheRate() {
        let limiter = RateLimiter(rate: 2, burst: 3)
        let t0 = ContinuousClock.now
        #expect((0 ..< 3).map { _ in limiter.take("k", now: t0) } == [nil, nil, nil])
        #expect(limiter.take("k", now: t0) == 1)
        #expect(limiter.take("other", now: t0) == nil)
        #expect(limiter.take("k", now: t0 + .milliseconds(500)) == nil)
        #expect(limiter.take("k", now: t0 + .milliseconds(500)) == 1)
        #expect((0 ..< 3).map { _ in limiter.take("k", now: t0 + .seconds(60)) } == [nil, nil, nil], "refills up to the burst only")
        #expect(limiter.take("k", now: t0 + .seconds(60)) != nil)
        #expect(RateLimiter(rate: 0, burst: 1).take("k") == nil, "rate 0: no limit")
    }

    /// Buckets for keys anyone can make (client addresses) are bounded: with the table full, a new
    /// key is refused until a bucket has refilled; then refilled buckets are dropped for it.
    @Test func bucketTableIsBounded() {
        let limiter = RateLimiter(rate: 1, burst: 2, maxKeys: 3)
        let t0 = ContinuousClock.now
        #expect(["a", "b", "c"].map { limiter.take($0, now: t0) } == [nil, nil, nil])
        #expect(limiter.take("d", now: t0) == 2, "table full, no bucket refilled: refused")
        #expect(limiter.take("a", now: t0) == nil, "a known key still has its bucket")
        #expect(limiter.count == 3)
        #expect(limiter.take("d", now: t0 + .seconds(3)) == nil, "refilled buckets are dropped for a new key")
        #expect(limiter.count == 1)
    }

    /// Credentials: the shape, the hash kept, and comparison against it.
    @Test func credentialsAreCheckedByShapeAndHash() throws {
        let key = Credential.generate(.apiKey)
        #expect(key.text.hasPrefix("act_") && key.text.count == 85)
        let parsed = try #require(Credential(key.text, kind: .apiKey))
        #expect(parsed.id == key.id && parsed.matches(key.sha256))
        #expect(Credential(key.text, kind: .appToken) == nil)
        #expect(Credential(key.text.uppercased(), kind: .apiKey) == nil)
        #expect(Credential(key.text + "0", kind: .apiKey) == nil)
        #expect(!Credential.generate(.apiKey).matches(key.sha256))
        #expect(Credential.generate(.appToken).id != Credential.generate(.appToken).id)
    }

    /// Forms: `+` kept (unescaped base64), escapes decoded, the first of a repeated name wins,
    /// broken escapes refused.
    @Test func formFields() {
        #expect(
            HostedRequest.form(Data("apikey=a%2Bb&token=t&receipt=AB+/=&apikey=second".utf8))
                == ["apikey": "a+b", "token": "t", "receipt": "AB+/="])
        #expect(HostedRequest.form(Data("receipt=%zz".utf8)) == nil)
        #expect(
            HostedRequest(body: Data(#"{"apikey": 1, "token": "t"}"#.utf8), contentType: nil)
                == HostedRequest(body: Data("token=t".utf8), contentType: "application/x-www-form-urlencoded"))
    }

    /// Neither the database (SQLite file and WAL, or every PostgreSQL table) nor the server's logs
    /// at trace level hold an API key, an app token, or their secret halves, after the keys were
    /// made by the commands and used, rightly and wrongly.
    @Test(arguments: TestDatabase.backends)
    func plaintextKeysAppearNowhere(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await LiveServer.createDatabase(database)   // commands refuse a database that is not there
        let app = try await CommandLineRegistry.run(database, ["app", "add", Synthetic.bundleID, "--encryption-key"])
        let created = try await CommandLineRegistry.run(database, ["apikey", "create"])
        let key = try #require(created["apikey"] as? String), token = try #require(app["token"] as? String)
        let server = try await LiveServer.start(LiveTests.serverArguments(database, ["--log-level", "trace"]))
        let client = HTTPClient()
        for (k, t) in [(key, token), (key + "x", token), (key, token + "x"), (String(key.dropLast()) + "f", token)] {
            var request = HTTPClientRequest(url: server.baseURL + "/v1/receipt")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(bytes: Array(HostedSetup.form(apiKey: k, token: t, receipt: StatusTests.consumable))))
            _ = try await client.execute(request, timeout: .seconds(30)).body.collect(upTo: 1 << 20)
        }
        try await client.shutdown()
        #expect(server.terminate() == 0)
        _ = try await CommandLineRegistry.run(database, ["apikey", "revoke", key])
        let secrets = [key, token, String(key.suffix(64)), String(token.suffix(64))]
        let stored = try await CommandLineRegistry.everythingStored(database)
        #expect(stored.count > 1000, "the dump holds the database")
        for secret in secrets {
            #expect(!stored.contains(secret), "plaintext in the database")
            #expect(!server.logText.contains(secret), "plaintext in the logs")
        }
        #expect(server.logText.contains("\"message\":\"listening\""))
        #expect(server.logText.contains("\"endpoint\":\"/v1/receipt\""), "the hosted API's route names its log lines")
        // Nor the app's AES key (printed once by `app add`) or the operator's secrets key, in any form.
        let appKey = try #require((app["encryption_key"] as? String).flatMap { Data(base64Encoded: $0) })
        for text in [appKey.base64EncodedString(), TestSecrets.key.base64, appKey.map { String(format: "%02x", $0) }.joined()] {
            #expect(!server.logText.contains(text), "a key in the logs")
        }
        #expect(!(try await SecretsInspect.holds(database, Array(appKey))), "the app's AES key in the database")
    }
}
