import Foundation
import Testing

/// `receipt-server import` from a second receipt-server (it answers Apple's shapes) into a fresh
/// database, on both backends: every token byte for byte, every status answer equal, nothing new
/// on a re-run, and the re-run asks the upstream nothing.
@Suite(.serialized) struct ImportLiveTests {
    typealias F = ImportFixture

    @Test(arguments: TestDatabase.backends)
    func importsCustomersByteForByteAndIdempotently(_ backend: TestDatabase.Backend) async throws {
        let (upstreamDatabase, database) = (try await TestDatabase.make(backend), try await TestDatabase.make(backend))
        try await LiveServer.createDatabase(database)
        let signer = APIJWTSigner()
        let key = try F.keyFile(signer)
        // Twelve customers of the four kinds, and one with 45 transactions (three history pages).
        let customers = (0 ..< 12).map { F.customer($0) } + [F.customer(100, transactions: 45)]
        let ids = customers.map(\.id)
        let expected = try await F.withUpstream(upstreamDatabase, signer: signer) { api, upstream in
            try await F.post(customers, to: api)
            let expected = try await F.answers(api, ids)
            let first = try await F.run(F.arguments(database, signer: signer, key: key, upstream: upstream) + ids)
            #expect(first.status == 0, "\(first.errors)")
            let summary = try F.summary(first.output)
            #expect(summary["requested"] as? Int == 13 && summary["imported"] as? Int == 13 && summary["failed"] as? Int == 0)
            #expect(summary["transactions"] as? Int == 9 * 3 + 3 + 45 && summary["renewals"] as? Int == 10)
            #expect(!first.errors.contains("\r"), "no progress line when standard error is not a terminal")
            return expected
        }
        // Statuses of every kind, and a history of three pages.
        #expect(Set(expected.values.compactMap { try? StatusBody(JSONAnswer.object(Data($0.statuses.utf8))).items.first?.status }) == [1, 3, 5])
        #expect(expected[ids.last!]?.history.count == 45)

        let stored = try await LiveServer.stats(database)
        #expect(stored["transactions"] == 9 * 3 + 3 + 45 && stored["notifications"] == 0)
        // A re-run with the upstream gone: everything complete, nothing asked, nothing stored.
        let again = try await F.run(F.arguments(database, signer: signer, key: key, upstream: "http://127.0.0.1:9") + ids)
        #expect(again.status == 0, "\(again.errors)")
        let second = try F.summary(again.output)
        #expect(second["skipped"] as? Int == 13 && second["imported"] as? Int == 0 && second["transactions"] as? Int == 0)
        #expect(try await LiveServer.stats(database) == stored)

        // The imported database answers exactly as the upstream did.
        let imported = try await APISession.with(database) { api in try await F.answers(api, ids) }
        for id in ids {
            #expect(imported[id] == expected[id], "customer \(id)")
        }
    }
}

/// The sandbox: `--environment Sandbox` with the upstream's `/sandbox` prefix imports its
/// customers; a production import of the same ids finds none of them.
@Suite struct ImportSandboxTests {
    typealias F = ImportFixture

    @Test func importsFromTheSandboxPrefix() async throws {
        let (upstreamDatabase, database) = (try await TestDatabase.make(.sqlite), try await TestDatabase.make(.sqlite))
        try await LiveServer.createDatabase(database)
        let signer = APIJWTSigner()
        let key = try F.keyFile(signer)
        let customers = (0 ..< 4).map { F.customer($0, environment: "Sandbox") }
        let ids = customers.map(\.id)
        let (expected, sandbox, production) = try await F.withUpstream(upstreamDatabase, signer: signer) { api, upstream in
            try await F.post(customers, to: api, sandbox: true)
            let expected = try await F.answers(api, ids, sandbox: true)
            let sandbox = try await F.run(
                F.arguments(database, signer: signer, key: key, upstream: upstream + "/sandbox/", environment: "Sandbox") + ids)
            let production = try await F.run(F.arguments(database, signer: signer, key: key, upstream: upstream) + ids)
            return (expected, sandbox, production)
        }
        let imported = try F.summary(sandbox.output)["imported"] as? Int
        #expect(sandbox.status == 0 && imported == 4, "\(sandbox.errors)")
        let failures = try F.summary(production.output)["failures"] as? [[String: Any]] ?? []
        #expect(production.status == 1 && failures.count == 4 && failures.allSatisfy { $0["errorCode"] as? Int == 4_040_010 })
        let answers = try await APISession.with(database) { api in try await F.answers(api, ids, sandbox: true) }
        #expect(answers == expected)
    }
}
