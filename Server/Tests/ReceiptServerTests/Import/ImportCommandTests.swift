import AppStoreJWS
@testable import AppStoreServerClient
import Foundation
@testable import receipt_server
import ReceiptService
import ReceiptTestSupport
import Synchronization
import Testing
import X509Certificates

/// `receipt-server import`'s arguments and output: what it refuses before asking anything, the
/// progress line, the bearer tokens (fresh well before expiry), the bounds of the client's waits.
@Suite struct ImportCommandTests {
    typealias F = ImportFixture

    @Test func refusesBadArgumentsBeforeAskingAnything() async throws {
        let database = try await TestDatabase.make(.sqlite)
        try await LiveServer.createDatabase(database)
        let signer = APIJWTSigner()
        let key = try F.keyFile(signer)
        let base = F.arguments(database, signer: signer, key: key, upstream: "http://127.0.0.1:9")
        let notAKey = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString).p8").path
        try Data("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8).write(to: URL(fileURLWithPath: notAKey))
        func replacing(_ option: String, _ value: String) -> [String] {
            var arguments = base
            arguments[arguments.firstIndex(of: option)! + 1] = value
            return arguments
        }
        let cases: [([String], String)] = [
            (base, "give TRANSACTION_ID... or --from FILE"),
            (replacing("--environment", "Xcode") + ["1"], "--environment must be Production or Sandbox"),
            (replacing("--upstream", "ftp://example.com") + ["1"], "--upstream must be an http or https URL"),
            (replacing("--upstream", "http://127.0.0.1:9/x?y=1") + ["1"], "--upstream must be an http or https URL"),
            (replacing("--key", "/nonexistent/AuthKey.p8") + ["1"], "cannot read the key file /nonexistent/AuthKey.p8"),
            (replacing("--key", notAKey) + ["1"], "the key file \(notAKey): "),
            (base + ["--from", "/nonexistent/ids"], "cannot read /nonexistent/ids"),
            (base + ["--concurrency", "0", "1"], "--concurrency must be 1 to 64"),
            (replacing("--database", "sqlite:/nonexistent/db.sqlite") + ["1"], "no database at /nonexistent/db.sqlite"),
        ]
        for (arguments, message) in cases {
            let result = try await F.run(arguments)
            #expect(result.status != 0 && result.errors.contains(message), "\(message): \(result.errors)")
            #expect(!result.errors.contains("AAAA") && !result.errors.contains(signer.key.pemRepresentation.split(separator: "\n")[1]))
        }
        // An app the registry does not serve.
        _ = try await CommandLineRegistry.run(database, ["app", "add", "com.example.other"])
        let notServed = try await F.run(base + ["1"])
        #expect(notServed.status != 0 && notServed.errors.contains("app \(Synthetic.bundleID) is not served here"), "\(notServed.errors)")
    }

    /// Failures are reported per id, and nothing printed or logged holds a token or the key.
    @Test func failuresPrintNoTokenNorKey() async throws {
        let database = try await TestDatabase.make(.sqlite)
        try await LiveServer.createDatabase(database)
        let signer = APIJWTSigner()
        let key = try F.keyFile(signer)
        let forged = TestJWSChain(rootName: "Someone Else's Root CA - G3").token(payload: #"{"transactionId":"1"}"#)
        let stub = ImportStub { _, _, uri in
            uri.contains("/7700000001")
                ? .reply(status: .unauthorized, body: "")
                : .reply(status: .ok, body: ImportStub.historyPage([forged], revision: "r", hasMore: false))
        }
        let result = try await stub.serve { base in
            try await F.run(F.arguments(database, signer: signer, key: key, upstream: base) + ["7700000000", "7700000001"])
        }
        #expect(result.status == 1, "\(result.errors)")
        let summary = try F.summary(result.output)
        #expect(summary["failed"] as? Int == 2 && (summary["failures"] as? [[String: Any]])?.count == 2)
        let bearer = try #require(stub.bearerTokens.first)
        let keyLines = signer.key.pemRepresentation.split(separator: "\n").dropFirst().dropLast()
        for text in [result.output, result.errors] {
            #expect(!text.contains("eyJ") && !text.contains(bearer.dropFirst(7)) && !text.contains(forged))
            #expect(keyLines.allSatisfy { !text.contains($0) })
        }
    }

    /// Like `ingest`, an import of a SQLite database takes the server's lock: a running server refuses it.
    @Test func aRunningServersSQLiteDatabaseIsRefused() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let server = try await LiveServer.start(["--database", database.url])
        defer { _ = server.terminate() }
        let signer = APIJWTSigner()
        let result = try await F.run(F.arguments(database, signer: signer, key: try F.keyFile(signer), upstream: "http://127.0.0.1:9") + ["1"])
        #expect(result.status != 0 && result.errors.contains("is being served by another receipt-server"), "\(result.errors)")
    }

    @Test func idsFromAFileSkipBlankLinesAndComments() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ids-\(UUID().uuidString)").path
        try Data("# customers\n\n  123 \r\n456\n#789\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try ImportCommand.ids(inFile: path) == ["123", "456"])
        #expect(ImportCommand.baseURL("http://127.0.0.1:8080/sandbox/") == "http://127.0.0.1:8080/sandbox")
        #expect(ImportCommand.baseURL("https://user@example.com") == nil)
    }

    @Test func theProgressLineAndTheSummary() {
        var summary = ImportSummary(requested: 4)
        summary.add(.imported(transactions: 3, renewals: 1))
        summary.add(.skipped)
        #expect(ImportProgressBar.line(summary, width: 10) == "[#####-----] 2/4  imported 1  skipped 1  failed 0  3 transactions")
        summary.add(.failed(ImportFailure(transactionId: "9", httpStatus: 404, errorCode: 4_040_010, reason: "r")))
        #expect(
            summary.json
                == #"{"failed":1,"failures":[{"errorCode":4040010,"httpStatus":404,"reason":"r","transactionId":"9"}],"imported":1,"#
                + #""renewals":1,"requested":4,"skipped":1,"transactions":3}"#)
    }

    /// A token is reused while young and replaced well before it expires; its lifetime is at
    /// most Apple's hour.
    @Test func bearerTokensAreFreshWellBeforeExpiry() throws {
        let signer = APIJWTSigner()
        let key = try P256PrivateKeyFile.signingKey(pem: signer.key.pemRepresentation)
        let appStoreSigner = AppStoreSigner(key: key, keyID: signer.keyID, issuerID: signer.issuerID, bundleID: Synthetic.bundleID)
        let clock = ManualClock(1_800_000_000)
        let tokens = BearerTokens(signer: appStoreSigner, lifetime: .seconds(1200), refresh: .seconds(600), now: { clock.now })
        let first = tokens.token()
        clock.advance(599)
        #expect(tokens.token() == first)
        clock.advance(1)
        let second = tokens.token()
        #expect(second != first)
        let claims = SignedAPIData.payload(second)
        #expect(claims["iat"] as? Int == 1_800_000_600 && claims["exp"] as? Int == 1_800_001_800)
        clock.advance(-10)   // a clock set back: a new token, never one issued in the future
        #expect(SignedAPIData.payload(tokens.token())["iat"] as? Int == 1_800_000_590)
        let long = BearerTokens(signer: appStoreSigner, lifetime: .seconds(86_400), refresh: .seconds(86_400), now: { clock.now })
        let capped = SignedAPIData.payload(long.token())
        #expect((capped["exp"] as? Int ?? 0) - (capped["iat"] as? Int ?? 0) == 3600)
        #expect(long.refresh == 1800)
    }

    @Test func waitsAreBounded() {
        let policy = AppStoreServerAPIClientPolicy(baseDelay: .milliseconds(500), maxDelay: .seconds(30), maxRetryAfter: .seconds(60))
        #expect((1 ... 9).map { policy.backoff(after: $0) } == [0.5, 1, 2, 4, 8, 16, 30, 30, 30].map { Duration.milliseconds(Int64($0 * 1000)) })
        #expect(policy.retryAfter("7") == .seconds(7) && policy.retryAfter(" 120 ") == .seconds(60))
        #expect(policy.retryAfter("99999999999999999999") == .seconds(60))
        #expect(policy.retryAfter(nil) == nil && policy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == nil && policy.retryAfter("-1") == nil)
        #expect(AppStoreServerAPIClient.percentEncoded("a+b/c=d&e") == "a%2Bb%2Fc%3Dd%26e")
    }
}

/// A settable clock of seconds for tests.
final class ManualClock: Sendable {
    private let seconds: Mutex<Int64>
    init(_ now: Int64) { seconds = Mutex(now) }
    var now: Int64 { seconds.withLock { $0 } }
    func advance(_ by: Int64) { seconds.withLock { $0 += by } }
}
