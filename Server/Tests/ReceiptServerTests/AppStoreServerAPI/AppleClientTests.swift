import AsyncHTTPClient
import Foundation
import Testing

/// Apple's official App Store Server API client (`app-store-server-library` for Python, which
/// `Server/ci` installs) against the real `receipt-server` process: a key made here and registered
/// with `iapkey add`, the client's base URL pointed at the server, every endpoint called through
/// it, and every token verified by the library's own `SignedDataVerifier` (X509_STRICT on).
@Suite(.serialized) struct AppleClientTests {
    static let keyID = "APPLECLI01"
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"

    /// Error codes the script must have seen come back as the client's `APIException`.
    static let errorNames = [
        "INVALID_TRANSACTION_ID", "TRANSACTION_ID_NOT_FOUND", "INVALID_REQUEST_REVISION", "INVALID_PAGINATION_TOKEN",
        "INVALID_STATUS", "INVALID_SORT", "INVALID_PRODUCT_TYPE", "INVALID_IN_APP_OWNERSHIP_TYPE", "INVALID_REVOKED",
        "START_DATE_AFTER_END_DATE", "APP_TRANSACTION_DOES_NOT_EXIST_ERROR", "HTTP 401",
    ]

    @Test(.enabled(if: AppleClient.shouldRun, AppleClient.skipReason), arguments: TestDatabase.backends)
    func appleClientReadsWhatTheServerHolds(_ backend: TestDatabase.Backend) async throws {
        _ = try #require(AppleClient.python, AppleClient.skipReason)
        let database = try await TestDatabase.make(backend)
        try await LiveServer.createDatabase(database)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-apple-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        // The app (its Apple id: production notifications name it) and a key for it, as an operator adds them.
        let key = try AppleClient.writeKey(in: directory, keyID: Self.keyID)
        _ = try await CommandLineRegistry.run(
            database, ["app", "add", AppleClientScenario.bundleID, "--apple-id", String(AppleClientScenario.appAppleID)])
        let added = try await CommandLineRegistry.run(
            database, ["iapkey", "add", Self.keyID, "--issuer", Self.issuerID, "--key", key.path, "--app", AppleClientScenario.bundleID])
        #expect(added["keyId"] as? String == Self.keyID && added["issuerId"] as? String == Self.issuerID, "\(added)")

        let scenario = AppleClientScenario()
        let server = try await LiveServer.start(["--database", database.url, "--root-g3", AppleClientChain.rootPath])
        let client = HTTPClient()
        let first = Int64(Date().timeIntervalSince1970 * 1000)
        for post in scenario.posts {
            let answer = try await LiveClient.post(
                client, server.baseURL + (post.sandbox ? "/sandbox" : "") + "/notifications/v2", SyntheticNotifications.body(post.signedPayload))
            #expect(answer.code == 200, "\(answer.json)")
            // History orders by the millisecond the server changed a transaction: one per post.
            try await Task.sleep(for: .milliseconds(3))
        }
        let last = Int64(Date().timeIntervalSince1970 * 1000)
        try await client.shutdown()

        let run = try await AppleClient.conformance(
            scenario.input(baseURL: server.baseURL, keyID: Self.keyID, issuerID: Self.issuerID, keyPath: key.path, window: first ... last),
            directory: directory)
        let log = server.logText
        #expect(server.terminate() == 0)
        #expect(run.status == 0, "conformance.py exited \(run.status)\n\(run.output)\n\(run.errors)\n\(log.suffix(3000))")
        let summary = try #require(run.summary, "conformance.py printed no summary: \(run.output)\n\(run.errors)")
        #expect(summary["ok"] as? Bool == true)
        #expect((summary["failures"] as? [String])?.isEmpty == true)
        #expect((summary["library"] as? String)?.hasPrefix("3.") == true, "\(summary["library"] ?? "")")
        #expect(summary["strictX509"] as? Bool == true)
        let errors = Set(summary["errors"] as? [String] ?? [])
        #expect(errors.isSuperset(of: Self.errorNames), "missing \(Set(Self.errorNames).subtracting(errors).sorted())")
        let production = try #require((summary["environments"] as? [String: [String: Int]])?["Production"])
        let sandbox = try #require((summary["environments"] as? [String: [String: Int]])?["Sandbox"])
        // 27 transactions and 31 notifications page at 20 each; every token verified, the app
        // transactions Get App Transaction Info answers too (4 production, 2 sandbox).
        #expect(production["historyPages", default: 0] >= 2 * 4 * 2, "\(production)")
        #expect(production["notificationPages", default: 0] >= 2, "\(production)")
        #expect(production["verifiedTokens", default: 0] >= 27 + 31 + 4, "\(production)")
        #expect(sandbox["verifiedTokens", default: 0] >= 2 + 2, "\(sandbox)")
    }
}
