import Foundation
import Testing

/// The issue's measure: 1,000 customers imported from a second receipt-server, complete, byte for
/// byte and idempotent, timed. Gated: `RECEIPT_SERVER_IMPORT_BENCH=N` (customers; 1 means 1,000),
/// on the backend `RECEIPT_SERVER_IMPORT_BENCH_BACKEND` (sqlite, the default, or postgres), with
/// the import run by `RECEIPT_SERVER_IMPORT_BENCH_BIN` when set (a release build) or the debug
/// executable. Prints one line of timings; Server/README records them.
@Suite struct ImportBenchTests {
    typealias F = ImportFixture
    static let environment = ProcessInfo.processInfo.environment
    static let customers: Int? = environment["RECEIPT_SERVER_IMPORT_BENCH"].flatMap(Int.init).map { $0 == 1 ? 1_000 : $0 }

    @Test(.enabled(if: customers != nil, "RECEIPT_SERVER_IMPORT_BENCH is not set"))
    func importsAThousandCustomersFromASecondServer() async throws {
        let count = try #require(Self.customers)
        let backend = TestDatabase.Backend(rawValue: Self.environment["RECEIPT_SERVER_IMPORT_BENCH_BACKEND"] ?? "sqlite") ?? .sqlite
        let (upstreamDatabase, database) = (try await TestDatabase.make(backend), try await TestDatabase.make(backend))
        try await LiveServer.createDatabase(database)
        let signer = APIJWTSigner()
        let key = try F.keyFile(signer)
        let clock = ContinuousClock()
        var started = clock.now
        let customers = (0 ..< count).map { F.customer($0) }
        let ids = customers.map(\.id)
        let signing = clock.now - started
        let idFile = FileManager.default.temporaryDirectory.appendingPathComponent("import-bench-\(UUID().uuidString).ids").path
        try Data(ids.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: idFile))
        started = clock.now
        let expected = try await F.post(customers, upstreamDatabase: upstreamDatabase, signer: signer)
        let posting = clock.now - started
        let executable = Self.environment["RECEIPT_SERVER_IMPORT_BENCH_BIN"]
        let (first, firstTook, second, secondTook) = try await F.withUpstream(upstreamDatabase, signer: signer) { _, upstream in
            let arguments = F.arguments(database, signer: signer, key: key, upstream: upstream) + ["--from", idFile]
            var started = clock.now
            let first = try await F.run(arguments, executable: executable)
            let firstTook = clock.now - started
            started = clock.now
            let second = try await F.run(arguments, executable: executable)
            return (first, firstTook, second, clock.now - started)
        }
        #expect(first.status == 0 && second.status == 0, "\(first.errors) \(second.errors)")
        let (summary, again) = (try F.summary(first.output), try F.summary(second.output))
        #expect(summary["imported"] as? Int == count && summary["failed"] as? Int == 0, "\(summary)")
        #expect(again["skipped"] as? Int == count && again["transactions"] as? Int == 0, "\(again)")
        started = clock.now
        let answers = try await APISession.with(database, configure: { $0.keyRate = 0 }) { api in try await F.answers(api, ids) }
        let comparing = clock.now - started
        let equal = ids.filter { answers[$0] == expected[$0] }.count
        #expect(equal == count)
        print(
            "import bench (\(backend), \(executable == nil ? "debug" : "given") executable): \(count) customers, "
                + "\(summary["transactions"] ?? "?") transactions, \(summary["renewals"] ?? "?") renewal infos; import \(firstTook), "
                + "re-run \(secondTook) (skipped \(again["skipped"] ?? "?")); \(equal)/\(count) customers' answers identical "
                + "(signing \(signing), posting \(posting), comparing \(comparing))")
    }
}
