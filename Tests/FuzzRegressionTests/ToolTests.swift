// The `receipt` tool on hostile input (DESIGN §7, §9): a few hundred runs over mutated and random
// inputs, and every input in Fuzz/regressions/tool/, through verify, decode and dump. The tool
// must exit 0, 1 or 2 by itself with one line of standard error on failure (ToolHarness in
// Sources/FuzzTargets). `Fuzz/run tool SECONDS` does the same for longer, with an ASan build.

import Foundation
import FuzzTargets
import ReceiptTestSupport
import Testing
import TestHelpers

enum ToolLocation {
    /// The `receipt` executable built with the tests.
    static let tool: URL? = BuiltExecutable.url("receipt")
}

@Suite("The receipt tool on hostile input")
struct ToolHostileInputTests {
    /// A scratch folder for one test.
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-tool-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// verify, decode, dump, dump --strict.
    static let coreModes = ToolHarness.modes.filter { ["verify", "decode", "dump", "dump-strict"].contains($0.name) }

    /// Runs `modes` over `input`; a broken invariant is a test failure naming `label`.
    static func runAllModes(
        _ tool: URL, _ input: [UInt8], label: String, synthetic: Bool, viaStdin: Bool = false,
        modes: [ToolHarness.Mode] = ToolHarness.modes,
        in directory: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for mode in modes {
            do {
                try ToolHarness.check(tool: tool, input: input, mode: mode, viaStdin: viaStdin, fromSyntheticSeed: synthetic, in: directory)
            } catch let violation as InvariantViolation {
                Issue.record("\(label) (\(input.count) bytes, hex \(Hex.string(input.prefix(64)))…): \(violation)", sourceLocation: sourceLocation)
            }
        }
    }

    static let seeds: [[UInt8]] = ["receipt", "der", "certificate"].flatMap { target in
        FuzzFolders.files("corpus", target).compactMap { try? FuzzFolders.bytes($0) }
    }

    /// 110 mutated inputs and 20 random ones through verify, decode, dump and dump --strict
    /// (some via standard input), every fourth also through the --json, xcode and bundle/device
    /// command lines: about 600 runs, some 15 s.
    @Test func mutatedAndRandomInputs() throws {
        let tool = try #require(ToolLocation.tool, "the receipt executable was not found beside the tests")
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(Self.seeds.count >= 20)
        var rng = SplitMix64(seed: 0x5EED_7001)
        for i in 0 ..< 110 {
            let seed = Self.seeds[rng.below(Self.seeds.count)]
            let input = Mutator.mutate(seed, other: Self.seeds[rng.below(Self.seeds.count)], &rng)
            try Self.runAllModes(
                tool, input, label: "mutated input \(i)", synthetic: true, viaStdin: i % 10 == 0,
                modes: i % 4 == 0 ? ToolHarness.modes : Self.coreModes, in: directory)
        }
        for i in 0 ..< 20 {
            let input = (0 ..< rng.below(2000)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            try Self.runAllModes(tool, input, label: "random input \(i)", synthetic: true, modes: Self.coreModes, in: directory)
        }
    }

    /// The seeds themselves: valid synthetic receipts, certificates, DER and BER samples.
    @Test func seedsThemselves() throws {
        let tool = try #require(ToolLocation.tool, "the receipt executable was not found beside the tests")
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (i, seed) in Self.seeds.enumerated() where i % 3 == 0 {
            try Self.runAllModes(tool, seed, label: "seed \(i)", synthetic: true, in: directory)
        }
    }

    /// Transaction receipt seeds (Fuzz/corpus/legacy: texts, base64, signature blobs, refused
    /// dictionaries) through every command line, and 24 mutations of them.
    @Test func transactionReceiptSeedsAndMutations() throws {
        let tool = try #require(ToolLocation.tool, "the receipt executable was not found beside the tests")
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let seeds = FuzzFolders.files("corpus", "legacy").compactMap { try? FuzzFolders.bytes($0) }
        #expect(seeds.count >= 10)
        for (i, seed) in seeds.enumerated() {
            try Self.runAllModes(tool, seed, label: "legacy seed \(i)", synthetic: true, in: directory)
        }
        var rng = SplitMix64(seed: 0x1E6A_C7)
        for i in 0 ..< 24 {
            let input = Mutator.mutate(seeds[rng.below(seeds.count)], other: seeds[rng.below(seeds.count)], &rng)
            try Self.runAllModes(
                tool, input, label: "mutated legacy input \(i)", synthetic: true, viaStdin: i % 6 == 0,
                modes: i % 4 == 0 ? ToolHarness.modes : Self.coreModes, in: directory)
        }
    }

    /// Every input that ever made the tool misbehave.
    @Test func regressions() throws {
        let files = FuzzFolders.files("regressions", "tool")
        guard !files.isEmpty else { return }
        let tool = try #require(ToolLocation.tool, "the receipt executable was not found beside the tests")
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        for file in files {
            try Self.runAllModes(tool, try FuzzFolders.bytes(file), label: file.lastPathComponent, synthetic: false, in: directory)
        }
    }
}
