// swift run -c release --package-path Benchmarks differential [--stride N] [--bits 0,7] [--jobs N]
//                                                             [--hang-seconds S] [FILE...]
//
// A differential bit-flip sweep against OpenSSL, in process: for every single-bit flip (every
// N-th byte, the bits given) of each receipt, our verdict (`AppReceipt` + `validate` under the App
// Store policy at the receipt's creation date) beside OpenSSL's (`d2i_CMS_ContentInfo` +
// `CMS_verify` against the same Apple Root CA, no time check, purpose any). One line per receipt
// and a total: both accept (same payload), both refuse, we refuse and OpenSSL accepts (counted by
// our reason: our extra rules), and the must-be-0 lines: we accept and OpenSSL refuses, we accept
// a different payload, crashes or hangs. Exit 1 when a must-be-0 line is not 0 (64: usage).
//
// Without FILE: every receipt in the shared fixtures that verifies under the App Store policy.
// The mutants are shared among `--jobs` worker processes (default: one per core) of this same
// executable, so that a crash or a hang is counted (and its mutant named) instead of ending the run.
import Foundation
import ReceiptBenchmarkCases

let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String, status: Int32 = 64) -> Never {
    FileHandle.standardError.write(Data("differential: \(message)\n".utf8))
    exit(status)
}

func value(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name) else { return nil }
    guard index + 1 < arguments.count else { fail("\(name) needs a value") }
    return arguments[index + 1]
}

func integer(_ name: String, default fallback: Int, minimum: Int) -> Int {
    guard let text = value(name) else { return fallback }
    guard let number = Int(text), number >= minimum else { fail("\(name) expects an integer ≥ \(minimum), not '\(text)'") }
    return number
}

let stride = integer("--stride", default: 1, minimum: 1)
let bits: [Int] = {
    guard let text = value("--bits") else { return [0, 7] }
    let list = text.split(separator: ",").compactMap { Int($0) }
    guard !list.isEmpty, list.count == text.split(separator: ",").count, list.allSatisfy((0 ... 7).contains) else {
        fail("--bits expects bit numbers 0…7 separated by commas, not '\(text)'")
    }
    return list
}()

if arguments.first == "--worker", arguments.count > 1 {
    let shard = (value("--shard") ?? "0/1").split(separator: "/").compactMap { Int($0) }
    guard shard.count == 2, shard[1] > 0, (0 ..< shard[1]).contains(shard[0]) else { fail("--shard expects K/N") }
    Worker.run(
        Worker.Job(
            file: arguments[1], stride: stride, bits: bits, shard: shard[0], shards: shard[1],
            from: integer("--from", default: 0, minimum: 0)))
}

let jobs = integer("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, minimum: 1)
let hangSeconds = Double(integer("--hang-seconds", default: 30, minimum: 1))
let valued: Set<String> = ["--stride", "--bits", "--jobs", "--hang-seconds"]
var files: [String] = []
var index = 0
while index < arguments.count {
    let argument = arguments[index]
    if valued.contains(argument) { index += 2; continue }
    if argument.hasPrefix("--") { fail("unknown option \(argument)") }
    files.append(argument)
    index += 1
}

let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
let report = Report(stride: stride, bits: bits, jobs: jobs)
report.printHeader()
let selected = files.isEmpty ? Report.defaultFiles() : files
if selected.isEmpty { fail("no receipt to sweep (the fixtures are read from \(Fixtures.directory.path), or RECEIPT_FIXTURES)", status: 2) }
let coordinator = Coordinator(executable: executable, workers: jobs, hangSeconds: hangSeconds)
let started = Date()
var sweeps: [Sweep] = []
for file in selected {
    guard let data = FileManager.default.contents(atPath: file) else { fail("cannot read \(file)", status: 2) }
    let name = URL(fileURLWithPath: file).lastPathComponent
    let sweep = Sweep(name: name, mutants: Mutants(original: [UInt8](data), stride: stride, bits: bits))
    let start = Date()
    coordinator.run(sweep, file: file)
    report.printLine(sweep, seconds: Date().timeIntervalSince(start))
    sweeps.append(sweep)
}
let failed = report.printTotal(sweeps, seconds: Date().timeIntervalSince(started))
exit(failed ? 1 : 0)
