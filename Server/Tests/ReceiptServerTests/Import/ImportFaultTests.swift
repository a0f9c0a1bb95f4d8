import AppStoreServerClient
import Crypto
import Foundation
import ReceiptService
import ReceiptStore
import Testing

/// The client's answers to what Apple may answer and a second receipt-server does not: 429 with
/// `Retry-After`, 5xx, stalls, other 4xx (reported per id, not retried); and the resumption of
/// an interrupted history after its last stored page. Against `ImportStub`, in process.
@Suite struct ImportFaultTests {
    typealias F = ImportFixture
    typealias N = SyntheticNotifications
    typealias S = SignedAPIData

    /// Short waits between attempts, and a long time for each (the tests count attempts, and a
    /// loaded machine must not make one time out).
    static let fast = AppStoreServerAPIClientPolicy(
        maxAttempts: 4, baseDelay: .milliseconds(20), maxDelay: .milliseconds(100), maxRetryAfter: .seconds(2),
        requestTimeout: .seconds(60), maxResponseBytes: 256 << 10)

    /// A subscription of two transactions and its renewal info, signed by the synthetic chain.
    static func subscription(_ original: Int64) -> (transactions: [String], renewal: String) {
        let id = String(original)
        let transactions = (0 ..< 2).map { k in
            S.transaction(
                N.Transaction(
                    transactionId: String(original + Int64(k)), originalTransactionId: id, purchaseDate: F.t0 + Int64(k) * 30 * F.day,
                    expiresDate: F.t0 + Int64(k + 1) * 30 * F.day, signedDate: F.t0 + Int64(k) * 30 * F.day + 1_000))
        }
        return (transactions, S.renewal(N.Renewal(originalTransactionId: id, signedDate: F.t0 + 30 * F.day + 1_000)))
    }

    /// What `database` holds of the customer of `id`.
    static func stored(_ database: TestDatabase, _ id: String) async throws -> CustomerRecords? {
        try await SignedDataFixtures.with(database) { store in
            try await store.customer(bundleID: Synthetic.bundleID, environment: "Production", transactionID: id)
        }
    }

    @Test func rateLimitThenServerErrorThenSuccess() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let customer = Self.subscription(7_100_000_000)
        let stub = ImportStub { endpoint, call, _ in
            switch (endpoint, call) {
            case ("history", 1):
                .reply(status: .tooManyRequests, headers: ["Retry-After": "1"], body: ImportStub.error(4_290_000, "Rate limit exceeded."))
            case ("history", 2): .reply(status: .serviceUnavailable, body: "")
            case ("history", _): .reply(status: .ok, body: ImportStub.historyPage(customer.transactions, revision: "r1", hasMore: false))
            default: .reply(status: .ok, body: ImportStub.statuses([("7100000000", customer.transactions[1], customer.renewal)]))
            }
        }
        let signer = APIJWTSigner()
        let started = ContinuousClock.now
        let summary = try await stub.serve { base in
            try await F.importInProcess(database, baseURL: base, ids: ["7100000000"], policy: Self.fast, signer: signer)
        }
        #expect(summary.imported == 1 && summary.failed == 0 && summary.transactions == 2 && summary.renewals == 1, "\(summary)")
        #expect(ContinuousClock.now - started >= .seconds(1), "Retry-After: 1 was honoured")
        #expect(stub.count("history") == 3 && stub.count("subscriptions") == 1)
        let records = try #require(try await Self.stored(database, "7100000001"))
        #expect(Set(records.transactions.map(\.facts.jws)) == Set(customer.transactions))
        #expect(records.renewals.map(\.facts.jws) == [customer.renewal])
        // Every request carried an ES256 token of the key, for the app, from AppStoreSigner.
        for header in stub.bearerTokens {
            let token = try #require(header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : nil)
            let parts = token.split(separator: ".").map(String.init)
            #expect(S.payload("x." + parts[0] + ".x")["kid"] as? String == signer.keyID)
            let claims = S.payload(token)
            #expect(claims["bid"] as? String == Synthetic.bundleID && claims["aud"] as? String == "appstoreconnect-v1")
            #expect(claims["iss"] as? String == signer.issuerID)
            let (iat, exp) = (claims["iat"] as? Int ?? 0, claims["exp"] as? Int ?? 0)
            #expect(exp - iat > 0 && exp - iat <= 3600)
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: Self.base64URL(parts[2]))
            #expect(signer.key.publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)))
        }
    }

    @Test func otherClientErrorsAreReportedPerIdWithoutRetry() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let customer = Self.subscription(7_200_000_000)
        let stub = ImportStub { endpoint, _, uri in
            if uri.contains("/7200000500") { return .reply(status: .notFound, body: ImportStub.error(4_040_010, "Transaction id not found.")) }
            if uri.contains("/7200000600") { return .reply(status: .unauthorized, body: "") }
            return endpoint == "history"
                ? .reply(status: .ok, body: ImportStub.historyPage(customer.transactions, revision: "r", hasMore: false))
                : .reply(status: .notFound, body: ImportStub.error(4_040_010, "Transaction id not found."))
        }
        let summary = try await stub.serve { base in
            try await F.importInProcess(
                database, baseURL: base, ids: ["7200000500", "7200000000", "7200000600", "12ab"], policy: Self.fast,
                limits: ImportLimits(concurrency: 1))
        }
        #expect(summary.imported == 1 && summary.failed == 3, "\(summary)")
        #expect(summary.failures.map(\.transactionId) == ["7200000500", "7200000600", "12ab"])
        #expect(summary.failures[0].httpStatus == 404 && summary.failures[0].errorCode == 4_040_010)
        #expect(summary.failures[1].httpStatus == 401 && summary.failures[1].errorCode == nil)
        #expect(summary.failures[2].httpStatus == nil && summary.failures[2].reason.contains("not a transaction id"))
        // One request each (a 404 of the statuses after a found history is a customer without subscriptions).
        #expect(stub.count("history") == 3 && stub.count("subscriptions") == 1)
    }

    @Test func serverErrorsAreRetriedABoundedNumberOfTimes() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let stub = ImportStub { _, _, _ in .reply(status: .internalServerError, body: ImportStub.error(5_000_001, "An unknown error occurred.")) }
        let summary = try await stub.serve { base in
            try await F.importInProcess(database, baseURL: base, ids: ["7300000000"], policy: Self.fast)
        }
        #expect(summary.failed == 1 && summary.failures.first?.httpStatus == 500 && summary.failures.first?.errorCode == 5_000_001)
        #expect(stub.count("history") == Self.fast.maxAttempts)
    }

    @Test func aStalledUpstreamTimesOut() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let stub = ImportStub { _, _, _ in .stall(seconds: 4) }
        var policy = Self.fast
        (policy.requestTimeout, policy.maxAttempts) = (.seconds(1), 2)
        let stalled = policy
        // Timed inside: the stub's own shutdown waits for its stalled handlers.
        let (summary, took) = try await stub.serve { base in
            let started = ContinuousClock.now
            let summary = try await F.importInProcess(database, baseURL: base, ids: ["7400000000"], policy: stalled)
            return (summary, ContinuousClock.now - started)
        }
        #expect(summary.failed == 1 && summary.failures.first?.httpStatus == nil, "\(summary)")
        // The client's deadline, the race beside it or the connection's read timeout, whichever fires first.
        let reason = summary.failures.first?.reason ?? ""
        #expect(reason.hasPrefix("/inApps/v2/history/7400000000: "), "\(reason)")
        #expect(took >= .seconds(2) && took < .seconds(30))
        #expect(stub.count("history") == 2)
    }

    /// A history interrupted after a stored page resumes at that page's revision.
    @Test func anInterruptedHistoryResumesAfterItsLastStoredPage() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let customer = Self.subscription(7_500_000_000)
        let stub = ImportStub { endpoint, call, _ in
            switch (endpoint, call) {
            case ("history", 1): .reply(status: .ok, body: ImportStub.historyPage([customer.transactions[0]], revision: "page-1", hasMore: true))
            case ("history", 2): .reply(status: .badRequest, body: ImportStub.error(4_000_005, "Invalid request revision."))
            case ("history", _): .reply(status: .ok, body: ImportStub.historyPage([customer.transactions[1]], revision: "page-2", hasMore: false))
            default: .reply(status: .ok, body: ImportStub.statuses([]))
            }
        }
        let (first, second) = try await stub.serve { base in
            (
                try await F.importInProcess(database, baseURL: base, ids: ["7500000000"], policy: Self.fast),
                try await F.importInProcess(database, baseURL: base, ids: ["7500000000"], policy: Self.fast)
            )
        }
        #expect(first.failed == 1 && first.failures.first?.errorCode == 4_000_005)
        #expect(second.imported == 1 && second.transactions == 1, "\(second)")
        #expect(
            stub.requests.filter { $0.contains("/history/") } == [
                "/inApps/v2/history/7500000000", "/inApps/v2/history/7500000000?revision=page-1", "/inApps/v2/history/7500000000?revision=page-1",
            ])
        #expect(try await Self.stored(database, "7500000000")?.transactions.count == 2)
    }

    static func base64URL(_ text: String) -> Data {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64) ?? Data()
    }
}
