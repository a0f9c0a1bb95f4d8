// package-benchmark suite: `swift package --package-path Benchmarks benchmark`.
//
// The same case closures as `compare` (ReceiptBenchmarkCases), each peer as its own benchmark
// ("decode/production ours", "… openssl", "… swift-asn1"), with wall clock, CPU and allocation
// counts. The DER walks ("walk-<fixture>") have a static malloc threshold of 0 in
// Thresholds/ReceiptBenchmarks.walk-<fixture>.p90.json, so that
// `swift package --package-path Benchmarks benchmark thresholds check --path Benchmarks/Thresholds --filter 'walk-.*'`
// fails (exit 2) when walking a receipt's DER tree starts to allocate.
import Benchmark
import ReceiptBenchmarkCases

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(1),
        maxIterations: 1_000
    )

    // DER walk of each fixture: ASN1Reader.walk inside withUnsafeBytes. Must allocate nothing.
    let noAllocation = BenchmarkThresholds(relative: BenchmarkThresholds.Relative.none, absolute: [.p90: 0])
    for sample in Fixtures.receipts {
        let bytes = sample.bytes
        Benchmark(
            "walk-\(sample.name)",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal],
                thresholds: [.mallocCountTotal: noAllocation]
            )
        ) { (benchmark: Benchmark) throws -> Void in
            for _ in benchmark.scaledIterations {
                blackHole(try Ours.walk(bytes))
            }
        }
    }

    let cases: [BenchmarkCase]
    do {
        cases = try Cases.all()
    } catch {
        fatalError("benchmark setup failed: \(error)")
    }
    for benchmarkCase in cases {
        for implementation in benchmarkCase.implementations {
            register("\(benchmarkCase.name) \(implementation.peer.title)", implementation.body, expected: benchmarkCase.expected)
        }
    }
}

/// One peer of one case; a result other than the expected one fails the benchmark.
func register(_ name: String, _ body: Body, expected: Int) {
    switch body {
    case .sync(let run):
        Benchmark(name) { (benchmark: Benchmark) throws -> Void in
            for _ in benchmark.scaledIterations {
                let result = try run()
                guard result == expected else { fatalError("\(name): returned \(result), expected \(expected)") }
                blackHole(result)
            }
        }
    case .async(let run):
        Benchmark(name) { (benchmark: Benchmark) async throws -> Void in
            for _ in benchmark.scaledIterations {
                let result = try await run()
                guard result == expected else { fatalError("\(name): returned \(result), expected \(expected)") }
                blackHole(result)
            }
        }
    }
}
