// swift run -c release --package-path Benchmarks compare [--reps N] [--sample-ms MS] [--filter TEXT]
//                                                        [--hardware-sha] [--strict]
// swift run -c release --package-path Benchmarks compare --loop CASE [--peer ours|openssl|swift-asn1] [--seconds S]
//     runs one implementation of one case in a loop, for perf/callgrind
//
// Runs every case of DESIGN §8 for ours, OpenSSL and swift-asn1/swift-certificates/swift-crypto in
// this one process, interleaved, and prints a table (medians, ratios, PASS/FAIL per target) and one
// `RESULT name=… ours_us=… openssl_us=… swift_asn1_us=…` line per case.
//
// SHA targets are against OpenSSL's software path: unless OPENSSL_ia32cap is already set (or
// --hardware-sha is given), the program re-executes itself with OPENSSL_ia32cap=":~0x20000000",
// which libcrypto (and swift-crypto's BoringSSL) read when they load, turning off the SHA
// extensions that Swift code cannot use without compiler flags the root package may not carry.
import Foundation
import ReceiptBenchmarkCases
#if canImport(Glibc)
    import Glibc
#endif

let softwareSHA = ":~0x20000000"

func warn(_ message: String) {
    FileHandle.standardError.write(Data("compare: \(message)\n".utf8))
}
let arguments = Array(CommandLine.arguments.dropFirst())

@MainActor func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

if ProcessInfo.processInfo.environment["OPENSSL_ia32cap"] == nil, !arguments.contains("--hardware-sha") {
    setenv("OPENSSL_ia32cap", softwareSHA, 1)
    let argv = CommandLine.arguments.map { strdup($0) } + [nil]
    execv("/proc/self/exe", argv)
    warn("could not re-execute with OPENSSL_ia32cap set; SHA figures use the hardware path")
}

var runner = Runner()
if let value = option("--reps").flatMap(Int.init) { runner.repetitions = max(1, value) }
if let value = option("--sample-ms").flatMap(Double.init) { runner.minSampleSeconds = value / 1000 }
let filter = option("--filter")

func machine() -> [String] {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
        cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
        .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    let shaNI = cpuinfo.contains(" sha_ni") ? "yes" : "no"
    return [
        "cpus (nproc): \(ProcessInfo.processInfo.activeProcessorCount), model: \(model), SHA extensions: \(shaNI)",
        "OpenSSL: \(OpenSSL.version); OPENSSL_ia32cap=\(ProcessInfo.processInfo.environment["OPENSSL_ia32cap"] ?? "(unset: hardware SHA)")",
    ]
}

func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
}

if let name = option("--loop") {
    let title = option("--peer") ?? "ours"
    guard let benchmarkCase = try Cases.all(where: { $0 == name }).first,
        let implementation = benchmarkCase.implementations.first(where: { $0.peer.title == title })
    else { warn("no case \(name) with peer \(title)"); exit(64) }
    let seconds = option("--seconds").flatMap(Double.init) ?? 5
    let runs = try await runner.loop(implementation, seconds: seconds)
    print("\(name) \(title): \(runs) runs in \(seconds) s")
    exit(0)
}

print("Receipt toolkit benchmarks: ours vs OpenSSL vs swift-asn1/swift-certificates/swift-crypto")
machine().forEach { print($0) }
print(
    "load average at start: \(loadAverage()); \(runner.repetitions) interleaved repetitions, samples ≥ \(Int(runner.minSampleSeconds * 1000)) ms; medians in µs per operation"
)

let check = Cases.crossCheckDecoders()
check.failures.forEach { print("DECODE ERROR \($0)") }
guard check.mismatches.isEmpty else {
    check.mismatches.forEach { warn($0) }
    exit(1)
}
print("cross-check: every decoder that decodes a receipt finds the same typed values as the others")
print("")

let cases = try Cases.all(where: { filter == nil || $0.contains(filter!) })
var report = Report()
for benchmarkCase in cases {
    report.measurements.append(try await runner.run(benchmarkCase))
}
report.printTable()
report.printThroughput()
report.printLinearity()
print("")
print("load average at end: \(loadAverage())")
report.printResults()
let failures = report.failures
print("")
print(
    "\(cases.count - failures.count) cases meet their target or have none, \(failures.count) miss it\(failures.isEmpty ? "" : ": " + failures.joined(separator: ", "))"
)
let errors = report.errors
errors.forEach { print("ERROR \($0)") }
if !errors.isEmpty || (arguments.contains("--strict") && !failures.isEmpty) { exit(1) }
