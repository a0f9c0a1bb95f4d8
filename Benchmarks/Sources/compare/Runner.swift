import ReceiptBenchmarkCases

/// Times every implementation of a case in the same process, interleaved: after a checked warm-up
/// and a calibration (enough iterations for one sample to last `minSampleSeconds`), each
/// repetition takes one sample of ours, then OpenSSL, then swift-asn1. Every iteration's result is
/// checked: an implementation that fails its first run (e.g. a verify that does not verify) is
/// never timed and is reported as an error; one that fails later aborts the run.
struct Runner {
    var repetitions = 9
    var minSampleSeconds = 0.02

    struct Measurement {
        let benchmarkCase: BenchmarkCase
        /// Microseconds per operation, one value per repetition.
        let samples: [Peer: [Double]]
        /// Implementations that failed their checked first run, and why (never timed).
        let errors: [Peer: String]

        func median(_ peer: Peer) -> Double? {
            guard let values = samples[peer]?.sorted(), !values.isEmpty else { return nil }
            let middle = values.count / 2
            return values.count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
        }

        /// Largest (max − min) ÷ median over the peers, as a rough noise figure.
        var spread: Double {
            samples.compactMap { peer, values in
                guard let median = median(peer), median > 0, let low = values.min(), let high = values.max() else { return nil }
                return (high - low) / median
            }.max() ?? 0
        }
    }

    func run(_ benchmarkCase: BenchmarkCase) async throws -> Measurement {
        var iterations: [Peer: Int] = [:]
        var errors: [Peer: String] = [:]
        for implementation in benchmarkCase.implementations {
            do {
                let result = try await implementation.body()
                guard result == benchmarkCase.expected else {
                    errors[implementation.peer] = "returned \(result), expected \(benchmarkCase.expected)"
                    continue
                }
            } catch {
                errors[implementation.peer] = "\(error)"
                continue
            }
            iterations[implementation.peer] = try await calibrate(implementation, benchmarkCase)
        }
        var samples: [Peer: [Double]] = [:]
        for _ in 0 ..< repetitions {
            for implementation in benchmarkCase.implementations {
                guard let count = iterations[implementation.peer] else { continue }
                let seconds = try await time(implementation, benchmarkCase, count)
                samples[implementation.peer, default: []].append(seconds / Double(count) * 1e6)
            }
        }
        return Measurement(benchmarkCase: benchmarkCase, samples: samples, errors: errors)
    }

    /// Runs one implementation for `seconds` (for profilers); returns the number of runs.
    func loop(_ implementation: Implementation, seconds: Double) async throws -> Int {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        var runs = 0
        while clock.now < deadline {
            for _ in 0 ..< 16 { _ = try await implementation.body() }
            runs += 16
        }
        return runs
    }

    /// Iterations for one sample of at least `minSampleSeconds`.
    private func calibrate(_ implementation: Implementation, _ benchmarkCase: BenchmarkCase) async throws -> Int {
        var count = 1
        while true {
            let seconds = try await time(implementation, benchmarkCase, count)
            if seconds >= minSampleSeconds { return count }
            if seconds >= minSampleSeconds / 8 {
                return Int((Double(count) * minSampleSeconds / seconds * 1.1).rounded(.up))
            }
            count *= 8
        }
    }

    private func time(_ implementation: Implementation, _ benchmarkCase: BenchmarkCase, _ count: Int) async throws -> Double {
        let body = implementation.body
        let expected = benchmarkCase.expected
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0 ..< count {
            let result = try await body()
            if result != expected {
                fatalError("\(benchmarkCase.name): \(implementation.peer.title) returned \(result), expected \(expected)")
            }
        }
        let elapsed = start.duration(to: clock.now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
    }
}
