import Crypto
import Foundation
import Logging
import ReceiptService
import ReceiptStore
import Testing

/// The App Store Server API's `Authorization: Bearer` JWT (issue 20 "Authentication"): Apple's
/// tokens accepted, with or without `iat`, within the leeway; every refusal one at a time.
struct APIJWTTests {
    static let now: Int64 = 1_767_225_600_000   // 2026-01-01T00:00:00Z
    static let seconds = now / 1000
    let signer = APIJWTSigner()

    func authenticator(_ records: [IAPKeyRecord]) -> (AppStoreAPIAuthenticator, MemoryIAPKeyStore) {
        let store = MemoryIAPKeyStore(records)
        return (AppStoreAPIAuthenticator(store: store, registry: AppRegistry(), logger: Logger(label: "test")), store)
    }

    /// The caller `token` proves at `now` to a fresh authenticator knowing `records`.
    func caller(_ token: String, records: [IAPKeyRecord]? = nil, now: Int64 = now) async -> AppStoreAPICaller? {
        await authenticator(records ?? [signer.record(apps: ["com.example.app"])]).0.authenticate("Bearer " + token, now: now)
    }

    func claims(_ change: (inout [String: Any]) -> Void) -> [String: Any] {
        var claims = signer.claims(now: Self.now)
        change(&claims)
        return claims
    }

    func header(_ change: (inout [String: Any]) -> Void) -> [String: Any] {
        var header = signer.header()
        change(&header)
        return header
    }

    @Test func appleShapedTokenNamesItsKeyAndApp() async throws {
        let caller = await caller(try signer.token(now: Self.now))
        #expect(caller == AppStoreAPICaller(keyID: signer.keyID, bundleID: "com.example.app"))
    }

    /// Apple's Python client sends no `iat`: `exp` then bounds the lifetime on its own.
    @Test func tokenWithoutIssuedAtIsAccepted() async throws {
        let token = try signer.token(
            header: signer.header(),
            claims: claims {
                $0["iat"] = nil; $0["exp"] = Self.seconds + 300
            })
        #expect(await caller(token)?.bundleID == "com.example.app")
    }

    /// 60 s of leeway at every time check, and an hour of lifetime exactly.
    @Test(
        arguments: [
            ["exp": seconds - 59],
            ["iat": seconds + 59, "exp": seconds + 600],
            ["iat": seconds - 100, "exp": seconds + 3500],
            ["iat": nil, "exp": seconds + 3600 + 59],
            ["nbf": seconds + 59],
        ] as [[String: Int64?]])
    func leewayIsAccepted(_ changes: [String: Int64?]) async throws {
        let token = try signer.token(header: signer.header(), claims: claims { for (name, value) in changes { $0[name] = value } })
        #expect(await caller(token) != nil)
    }

    @Test func audienceMayBeAnArray() async throws {
        let token = try signer.token(header: signer.header(), claims: claims { $0["aud"] = ["other", "appstoreconnect-v1"] })
        #expect(await caller(token) != nil)
    }

    @Test func keyWithoutAppsServesEveryApp() async throws {
        #expect(await caller(try signer.token(now: Self.now, bundleID: "com.example.other"), records: [signer.record()]) != nil)
    }

    /// One thing wrong at a time, each refused (nil: the route answers 401 with an empty body).
    @Test(arguments: [
        "alg none", "alg HS256", "alg ES384", "alg absent", "kid absent", "kid unknown", "typ JOSE", "crit", "signature altered",
        "signature by another key", "signature short", "aud", "aud absent", "iss", "iss absent", "bid other app", "bid absent",
        "exp absent", "exp a string", "exp beyond leeway", "iat in the future", "lifetime over an hour",
        "no iat and exp too far", "nbf in the future",
    ])
    func refusal(_ name: String) async throws {
        let other = P256.Signing.PrivateKey()
        let n = Self.seconds
        let token: String
        switch name {
        case "alg none":
            token = try signer.token(header: header { $0["alg"] = "none" }, claims: claims { _ in })
        case "alg HS256":
            let input =
                APIJWTSigner.base64URL(try JSONSerialization.data(withJSONObject: header { $0["alg"] = "HS256" })) + "."
                + APIJWTSigner.base64URL(try JSONSerialization.data(withJSONObject: claims { _ in }))
            // HMAC keyed with the public key, the classic algorithm-confusion attack.
            let mac = HMAC<Crypto.SHA256>.authenticationCode(
                for: Data(input.utf8), using: SymmetricKey(data: signer.key.publicKey.x963Representation))
            token = input + "." + APIJWTSigner.base64URL(Data(mac))
        case "alg ES384": token = try signer.token(header: header { $0["alg"] = "ES384" }, claims: claims { _ in })
        case "alg absent": token = try signer.token(header: header { $0["alg"] = nil }, claims: claims { _ in })
        case "kid absent": token = try signer.token(header: header { $0["kid"] = nil }, claims: claims { _ in })
        case "kid unknown": token = try signer.token(header: header { $0["kid"] = "OTHERKEY12" }, claims: claims { _ in })
        case "typ JOSE": token = try signer.token(header: header { $0["typ"] = "JOSE" }, claims: claims { _ in })
        case "crit": token = try signer.token(header: header { $0["crit"] = ["exp"] }, claims: claims { _ in })
        case "signature altered":
            var parts = try signer.token(now: Self.now).split(separator: ".").map(String.init)
            parts[1] = APIJWTSigner.base64URL(try JSONSerialization.data(withJSONObject: claims { $0["bid"] = "com.example.other" }))
            token = parts.joined(separator: ".")
        case "signature by another key":
            let input = try signer.token(now: Self.now).split(separator: ".").prefix(2).joined(separator: ".")
            token = input + "." + APIJWTSigner.base64URL(try other.signature(for: Data(input.utf8)).rawRepresentation)
        case "signature short":
            token = try signer.token(header: signer.header(), claims: claims { _ in }, signature: Array(repeating: 1, count: 63))
        case "aud": token = try signer.token(header: signer.header(), claims: claims { $0["aud"] = "appstoreconnect-v2" })
        case "aud absent": token = try signer.token(header: signer.header(), claims: claims { $0["aud"] = nil })
        case "iss": token = try signer.token(header: signer.header(), claims: claims { $0["iss"] = "another-issuer" })
        case "iss absent": token = try signer.token(header: signer.header(), claims: claims { $0["iss"] = nil })
        case "bid other app": token = try signer.token(now: Self.now, bundleID: "com.example.other")
        case "bid absent": token = try signer.token(header: signer.header(), claims: claims { $0["bid"] = nil })
        case "exp absent": token = try signer.token(header: signer.header(), claims: claims { $0["exp"] = nil })
        case "exp a string": token = try signer.token(header: signer.header(), claims: claims { $0["exp"] = "\(n + 600)" })
        case "exp beyond leeway":
            token = try signer.token(
                header: signer.header(),
                claims: claims {
                    $0["iat"] = n - 600; $0["exp"] = n - 61
                })
        case "iat in the future":
            token = try signer.token(
                header: signer.header(),
                claims: claims {
                    $0["iat"] = n + 61; $0["exp"] = n + 600
                })
        case "lifetime over an hour":
            token = try signer.token(
                header: signer.header(),
                claims: claims {
                    $0["iat"] = n - 10; $0["exp"] = n - 10 + 3601
                })
        case "no iat and exp too far":
            token = try signer.token(
                header: signer.header(),
                claims: claims {
                    $0["iat"] = nil; $0["exp"] = n + 3600 + 61
                })
        case "nbf in the future": token = try signer.token(header: signer.header(), claims: claims { $0["nbf"] = n + 61 })
        default: Issue.record("unknown case \(name)"); return
        }
        #expect(await caller(token) == nil, "\(name)")
    }

    @Test func revokedKeyIsRefused() async throws {
        #expect(await caller(try signer.token(now: Self.now), records: [signer.record(revoked: 5)]) == nil)
    }

    /// Malformed tokens and headers: refused before any key is looked up.
    @Test func malformedTokensAreRefused() async throws {
        let good = try signer.token(now: Self.now)
        let parts = good.split(separator: ".").map(String.init)
        let (authenticator, store) = authenticator([signer.record()])
        let headers: [String?] = [
            nil, "", "Bearer", "Bearer ", "Basic " + good, "Bearer" + good, "Bearer \(good) extra", good,
            "Bearer " + parts[0] + "." + parts[1],   // two parts
            "Bearer " + good + ".",   // four parts
            "Bearer " + parts[0] + "." + parts[1] + "." + parts[2] + "=",   // padding
            "Bearer " + parts[0] + ".!!!." + parts[2],   // not base64url
            "Bearer " + parts[0] + "." + APIJWTSigner.base64URL(Data("{\"iss\":".utf8)) + "." + parts[2],   // JSON cut short
            "Bearer " + parts[0] + "." + APIJWTSigner.base64URL(Data("[1,2]".utf8)) + "." + parts[2],   // not an object
            "Bearer " + APIJWTSigner.base64URL(Data("not json".utf8)) + "." + parts[1] + "." + parts[2],
        ]
        for header in headers {
            #expect(await authenticator.authenticate(header, now: Self.now) == nil, "\(header ?? "nil")")
        }
        #expect(store.reads == 0, "nothing malformed reaches the key store")
        #expect(await authenticator.authenticate("bearer  " + good, now: Self.now) != nil, "the scheme is case-insensitive")
    }

    /// Tokens longer than 8 KiB are refused even when properly signed; shorter ones are read.
    @Test func oversizedTokenIsRefused() async throws {
        let long = try signer.token(header: signer.header(), claims: claims { $0["pad"] = String(repeating: "x", count: 5_600) })
        let longer = try signer.token(header: signer.header(), claims: claims { $0["pad"] = String(repeating: "x", count: 6_300) })
        #expect(long.utf8.count < 8 << 10 && longer.utf8.count > 8 << 10)
        #expect(await caller(long) != nil)
        #expect(await caller(longer) == nil)
    }
}
