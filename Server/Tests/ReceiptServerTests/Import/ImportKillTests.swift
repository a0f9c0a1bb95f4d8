import Foundation
import Testing

/// `kill -9` of `receipt-server import` mid-run, then a re-run: it resumes, completes, and
/// nothing is stored twice (both backends).
@Suite(.serialized) struct ImportKillTests {
    typealias F = ImportFixture

    @Test(arguments: TestDatabase.backends)
    func killedImportResumesWithNothingDoubled(_ backend: TestDatabase.Backend) async throws {
        let (upstreamDatabase, database) = (try await TestDatabase.make(backend), try await TestDatabase.make(backend))
        try await LiveServer.createDatabase(database)
        let signer = APIJWTSigner()
        let key = try F.keyFile(signer)
        let customers = (0 ..< 40).map { F.customer($0) }
        let ids = customers.map(\.id)
        let total = 30 * 3 + 10
        let expected = try await F.post(customers, upstreamDatabase: upstreamDatabase, signer: signer)
        // The upstream lets 20 requests a second through (429 with Retry-After past that): the run
        // takes seconds, and is killed once part of it is stored.
        let (killedAt, skipped, imported) = try await F.withUpstream(upstreamDatabase, signer: signer, keyRate: 20, keyBurst: 4) { _, upstream in
            let arguments = F.arguments(database, signer: signer, key: key, upstream: upstream) + ["--concurrency", "1"] + ids
            let process = try F.start(arguments)
            var killedAt = 0
            for _ in 0 ..< 600 {
                try await Task.sleep(for: .milliseconds(50))
                killedAt = try await F.storedTransactions(database)
                if killedAt >= 12 || !process.isRunning { break }
            }
            // Only a running process: a pid that has exited (and been reaped) may already name
            // another process, or a thread of this one, which SIGKILL would take down.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            let killed = try await F.finish(process)
            #expect(killed.status == SIGKILL, "the import was not killed mid-run: \(killed.output)")
            let rerun = try await F.run(arguments)
            #expect(rerun.status == 0, "\(rerun.errors)")
            let summary = try F.summary(rerun.output)
            return (killedAt, summary["skipped"] as? Int ?? -1, summary["imported"] as? Int ?? -1)
        }
        #expect(killedAt > 0 && killedAt < total)
        #expect(skipped > 0 && imported > 0 && skipped + imported == 40, "skipped \(skipped), imported \(imported)")
        #expect(try await LiveServer.stats(database)["transactions"] == total)
        let answers = try await APISession.with(database) { api in try await F.answers(api, ids) }
        #expect(answers == expected)
    }
}
