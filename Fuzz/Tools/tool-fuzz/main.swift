// `Fuzz/run tool SECONDS [DIR...]`: the `receipt` executable on mutated inputs, one process per
// run, until SECONDS have passed (the invariants are ToolHarness's in Sources/FuzzTargets).
//
//   tool-fuzz --tool PATH --seconds N --crashes DIR [--seed N] SEED_DIR...
// Inputs from folders whose path contains "/Fuzz/corpus/" count as synthetic: `verify` must never
// accept them. Exit status 0 when nothing was found, 1 with the failing input saved in --crashes.
import Foundation
import FuzzTargets
import ReceiptTestSupport

var tool: URL? = nil
var seconds = 20.0
var crashes = URL(fileURLWithPath: "Fuzz/crashes/tool")
var randomSeed = UInt64(Date().timeIntervalSince1970)
var folders: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--tool": tool = arguments.popFirst().map { URL(fileURLWithPath: $0) }
    case "--seconds": seconds = Double(arguments.popFirst() ?? "") ?? seconds
    case "--crashes": crashes = URL(fileURLWithPath: arguments.popFirst() ?? crashes.path)
    case "--seed": randomSeed = UInt64(arguments.popFirst() ?? "") ?? randomSeed
    default: folders.append(argument)
    }
}
guard let tool else {
    FileHandle.standardError.write(Data("usage: tool-fuzz --tool PATH --seconds N --crashes DIR [--seed N] SEED_DIR...\n".utf8))
    exit(64)
}

var seeds: [(bytes: [UInt8], synthetic: Bool)] = []
for folder in folders {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for name in names.sorted() {
        guard let data = FileManager.default.contents(atPath: folder + "/" + name) else { continue }
        seeds.append(([UInt8](data), folder.contains("/Fuzz/corpus/") || folder.hasPrefix("Fuzz/corpus/")))
    }
}
guard !seeds.isEmpty else {
    FileHandle.standardError.write(Data("tool-fuzz: no seeds in \(folders)\n".utf8))
    exit(64)
}

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tool-fuzz-\(getpid())")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }

var rng = SplitMix64(seed: randomSeed)
let start = Date()
var runs = 0, inputs = 0
var statuses: [Int32: Int] = [:]
print("tool-fuzz: \(seeds.count) seeds, \(ToolHarness.modes.count) modes, random seed \(randomSeed), \(Int(seconds)) s")
while Date().timeIntervalSince(start) < seconds {
    let seed = seeds[rng.below(seeds.count)]
    let input = Mutator.mutate(seed.bytes, other: seeds[rng.below(seeds.count)].bytes, &rng)
    inputs += 1
    for mode in ToolHarness.modes {
        do {
            let status = try ToolHarness.check(
                tool: tool, input: input, mode: mode, viaStdin: rng.below(8) == 0,
                fromSyntheticSeed: seed.synthetic, in: scratch)
            statuses[status, default: 0] += 1
            runs += 1
        } catch {
            try FileManager.default.createDirectory(at: crashes, withIntermediateDirectories: true)
            let name = "\(mode.name)-\(inputs)-\(randomSeed)"
            let saved = crashes.appendingPathComponent(name)
            try Data(input).write(to: saved)
            print("tool-fuzz: FOUND \(error)")
            print("tool-fuzz: input saved to \(saved.path) (receipt \(mode.arguments.joined(separator: " ")) FILE)")
            print("TOOL-FUZZ DONE runs=\(runs) inputs=\(inputs) result=found")
            exit(1)
        }
    }
}
let elapsed = Date().timeIntervalSince(start)
let summary = statuses.keys.sorted().map { "\($0):\(statuses[$0]!)" }.joined(separator: " ")
print(
    "TOOL-FUZZ DONE runs=\(runs) inputs=\(inputs) seconds=\(Int(elapsed)) exec/s=\(Int(Double(runs) / max(elapsed, 1))) statuses=\(summary) result=ok"
)
