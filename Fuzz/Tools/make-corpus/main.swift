// Writes the seed corpora, Fuzz/corpus/<target>/, from the project's synthetic inputs
// (FuzzSeeds in Sources/FuzzTargets). Deterministic: running it again changes nothing.
//
//   swift run --package-path Fuzz make-corpus [OUTPUT_DIR]
import Foundation
import FuzzTargets

let fuzzDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let output =
    CommandLine.arguments.count > 1
    ? URL(fileURLWithPath: CommandLine.arguments[1])
    : fuzzDirectory.appendingPathComponent("corpus")
let files = FileManager.default
for harness in Harness.allCases {
    let folder = output.appendingPathComponent(harness.rawValue)
    try files.createDirectory(at: folder, withIntermediateDirectories: true)
    for stale in try files.contentsOfDirectory(atPath: folder.path) {
        try files.removeItem(at: folder.appendingPathComponent(stale))
    }
    let corpus = FuzzSeeds.corpus(for: harness)
    for file in corpus {
        try Data(file.bytes).write(to: folder.appendingPathComponent(file.name))
    }
    print("\(harness.rawValue): \(corpus.count) files, \(corpus.reduce(0) { $0 + $1.bytes.count }) bytes -> \(folder.path)")
}
