import Foundation
import FuzzTargets
import Testing
import TestHelpers

/// The `ocsp` harness (issue 40): its corpus is what `FuzzSeeds` generates, the seeds pass (and
/// verify: the harness demands it of them), and every seed with each byte flipped or cut short
/// keeps the invariants. Inputs that ever failed, `Fuzz/regressions/ocsp/`, are replayed too.
@Suite("OCSP harness")
struct OCSPHarnessTests {
    @Test func corpusMatchesTheSeeds() throws {
        let files = FuzzFolders.files("corpus", "ocsp")
        let seeds = FuzzSeeds.corpus(for: .ocsp)
        #expect(files.map(\.lastPathComponent) == seeds.map(\.name).sorted(), "run `swift run --package-path Fuzz make-corpus`")
        for seed in seeds {
            let file = FuzzFolders.fuzz.appendingPathComponent("corpus/ocsp/\(seed.name)")
            #expect(try FuzzFolders.bytes(file) == seed.bytes, "Fuzz/corpus/ocsp/\(seed.name) is stale")
            #expect(throws: Never.self, "\(seed.name)") { try Harness.ocsp.check(seed.bytes) }
        }
    }

    @Test func mutatedSeeds() throws {
        for seed in FuzzSeeds.corpus(for: .ocsp) {
            for index in stride(from: 0, to: seed.bytes.count, by: 3) {
                var flipped = seed.bytes
                flipped[index] ^= 0x80
                #expect(throws: Never.self, "\(seed.name) byte \(index)") { try Harness.ocsp.check(flipped) }
            }
            for length in stride(from: 0, to: seed.bytes.count, by: 17) {
                #expect(throws: Never.self, "\(seed.name) cut at \(length)") { try Harness.ocsp.check(Array(seed.bytes.prefix(length))) }
            }
        }
    }

    @Test func regressions() throws {
        for file in FuzzFolders.files("regressions", "ocsp") { try replay(.ocsp, file) }
    }
}
