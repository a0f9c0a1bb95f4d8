import AppStoreServerClient
import Foundation
import ReceiptService
import ReceiptTestSupport
import Testing

/// A hostile upstream is bounded: a body that never ends, `hasMore` forever, a revision that does
/// not advance or is too long, a `Retry-After` of days, answers that are not Apple's shape, and
/// tokens the server does not trust or that belong to another app or subscription. Each fails
/// its id (or waits no longer than the bound) and stores nothing it should not.
@Suite struct ImportHostileTests {
    typealias F = ImportFixture
    typealias N = SyntheticNotifications
    typealias S = SignedAPIData
    static let fast = ImportFaultTests.fast

    /// Runs an import of `id` against `stub`; the summary and how long it took.
    static func run(
        _ stub: ImportStub, _ id: String, policy: AppStoreServerAPIClientPolicy = fast, limits: ImportLimits = ImportLimits()
    ) async throws -> (ImportSummary, Duration, TestDatabase) {
        let database = try await TestDatabase.make(.sqlite)
        // Timed inside: the stub's start and shutdown are not the client's.
        let (summary, took) = try await stub.serve { base in
            let started = ContinuousClock.now
            let summary = try await F.importInProcess(database, baseURL: base, ids: [id], policy: policy, limits: limits)
            return (summary, ContinuousClock.now - started)
        }
        return (summary, took, database)
    }

    @Test(arguments: [nil, 1 << 30] as [Int?])
    func aBodyThatNeverEndsIsNotRead(_ declaredLength: Int?) async throws {
        let stub = ImportStub { _, _, _ in .endless(declaredLength: declaredLength) }
        let (summary, took, _) = try await Self.run(stub, "7600000000")
        #expect(summary.failed == 1 && summary.failures.first?.reason.contains("larger than 262144 bytes") == true, "\(summary)")
        #expect(stub.count("history") == 1, "not retried")
        #expect(stub.endless.started == 1 && stub.endless.finished == 0, "the client hung up long before 1 GiB")
        #expect(took < .seconds(60), "bounded (under a loaded machine too)")
    }

    @Test func hasMoreForeverStopsAtThePageBound() async throws {
        let stub = ImportStub { _, call, _ in .reply(status: .ok, body: ImportStub.historyPage([], revision: "r\(call)", hasMore: true)) }
        let (summary, _, _) = try await Self.run(stub, "7610000000", limits: ImportLimits(maxPages: 5))
        #expect(summary.failures.first?.reason == "the history has more than 5 pages")
        #expect(stub.count("history") == 5 && stub.count("subscriptions") == 0)
    }

    @Test func aRevisionThatDoesNotAdvanceStops() async throws {
        let stub = ImportStub { _, _, _ in .reply(status: .ok, body: ImportStub.historyPage([], revision: "same", hasMore: true)) }
        let (summary, _, _) = try await Self.run(stub, "7620000000")
        #expect(summary.failures.first?.reason == "the history says hasMore but its revision did not advance")
        #expect(stub.count("history") == 2)
    }

    @Test func aRevisionTooLongToKeepIsRefused() async throws {
        let stub = ImportStub { _, _, _ in
            .reply(status: .ok, body: ImportStub.historyPage([], revision: String(repeating: "r", count: 2_000), hasMore: false))
        }
        let (summary, _, _) = try await Self.run(stub, "7630000000")
        #expect(summary.failures.first?.reason == "the history's revision is longer than 1024 bytes")
    }

    @Test func aRetryAfterOfDaysWaitsOnlyTheBound() async throws {
        let stub = ImportStub { endpoint, call, _ in
            if endpoint == "history" && call == 1 { return .reply(status: .tooManyRequests, headers: ["Retry-After": "864000"], body: "") }
            return endpoint == "history"
                ? .reply(status: .ok, body: ImportStub.historyPage([], revision: "r", hasMore: false))
                : .reply(status: .ok, body: ImportStub.statuses([]))
        }
        var policy = Self.fast
        policy.maxRetryAfter = .seconds(1)
        let (summary, _, _) = try await Self.run(stub, "7640000000", policy: policy)
        #expect(summary.imported == 1, "\(summary)")
        let arrivals = stub.arrivalTimes
        try #require(arrivals.count == 3)
        let waited = arrivals[1] - arrivals[0]
        #expect(waited >= .seconds(1) && waited < .seconds(30), "one bounded wait (\(waited)), not ten days")
    }

    @Test(arguments: ["not json", #"{"signedTransactions": "x", "revision": "r", "hasMore": false}"#, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", ""])
    func answersNotOfApplesShapeFailTheId(_ body: String) async throws {
        let stub = ImportStub { _, _, _ in .reply(status: .ok, body: body) }
        let (summary, _, _) = try await Self.run(stub, "7650000000")
        #expect(summary.failures.first?.reason == "/inApps/v2/history/7650000000: the answer is not Apple's shape", "\(summary)")
        #expect(stub.count("history") == 1)
    }

    @Test func tokensTheServerDoesNotTrustAreRefusedAndNothingIsStored() async throws {
        let other = TestJWSChain(rootName: "Someone Else's Root CA - G3")
        let original: Int64 = 7_660_000_000
        let genuine = N.Transaction(
            transactionId: String(original), originalTransactionId: String(original), purchaseDate: F.t0, expiresDate: F.t0 + 30 * F.day,
            signedDate: F.t0 + 1_000)
        let forged = other.token(payload: String(decoding: try JSONSerialization.data(withJSONObject: genuine.payload), as: UTF8.self))
        var otherApp = genuine
        otherApp.bundleId = "com.example.other"
        for token in [forged, S.transaction(otherApp), S.transaction(genuine, ["environment": "Sandbox"]), "", "a.b.c"] {
            let stub = ImportStub { endpoint, _, _ in
                endpoint == "history"
                    ? .reply(status: .ok, body: ImportStub.historyPage([S.transaction(genuine), token], revision: "r", hasMore: false))
                    : .reply(status: .ok, body: ImportStub.statuses([]))
            }
            let (summary, _, database) = try await Self.run(stub, String(original))
            #expect(summary.failed == 1 && summary.failures.first?.reason.hasPrefix("history item 2: ") == true, "\(summary)")
            #expect(try await ImportFaultTests.stored(database, String(original)) == nil, "the page is verified whole before any of it is stored")
        }
    }

    @Test func aRenewalInfoOfAnotherSubscriptionIsRefused() async throws {
        let customer = ImportFaultTests.subscription(7_670_000_000)
        let elsewhere = S.renewal(N.Renewal(originalTransactionId: "7679999999", signedDate: F.t0))
        for (original, renewal, reason) in [
            ("7670000000", elsewhere, "status entry 1: signedRenewalInfo: originalTransactionId 7679999999, its transaction's is 7670000000"),
            ("7679999999", customer.renewal, "status entry 1: originalTransactionId 7679999999, its signedTransactionInfo's is 7670000000"),
        ] {
            let stub = ImportStub { endpoint, _, _ in
                endpoint == "history"
                    ? .reply(status: .ok, body: ImportStub.historyPage(customer.transactions, revision: "r", hasMore: false))
                    : .reply(status: .ok, body: ImportStub.statuses([(original, customer.transactions[1], renewal)]))
            }
            let (summary, _, database) = try await Self.run(stub, "7670000000")
            #expect(summary.failures.first?.reason == reason, "\(summary)")
            #expect(try await ImportFaultTests.stored(database, "7670000000")?.renewals.isEmpty == true)
        }
    }
}
