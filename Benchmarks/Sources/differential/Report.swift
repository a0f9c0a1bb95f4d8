import Foundation
import ReceiptBenchmarkCases

/// What the sweep prints: a header, one line per receipt, the total, our reasons for the
/// mutants only OpenSSL accepts, and every mutant in a must-be-0 line.
struct Report {
    let stride: Int
    let bits: [Int]
    let jobs: Int

    func printHeader() {
        print("differential: ours (AppReceipt + validate, App Store policy, at the receipt's creation date)")
        print("          vs \(OpenSSL.version): d2i_CMS_ContentInfo + CMS_verify (Apple Root CA, no time check, purpose any)")
        print(
            "stride \(stride), bits \(bits.map(String.init).joined(separator: ",")), \(jobs) worker processes; load average at start: \(Self.loadAverage())"
        )
    }

    /// The receipts of the shared fixtures that we verify under the App Store policy (the others
    /// are named, with our reason, and left out).
    static func defaultFiles() -> [String] {
        let folder = Fixtures.directory.appendingPathComponent("receipts")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".der") }.sorted()
        if names.isEmpty { print("no receipts in \(folder.path) (set RECEIPT_FIXTURES)") }
        return names.compactMap { name in
            let path = folder.appendingPathComponent(name).path
            let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
            if case .refuse(let reason) = Ours.verdict(bytes) {
                print("\(name): left out, not verifiable under the App Store policy (\(reason))")
                return nil
            }
            return path
        }
    }

    func printLine(_ sweep: Sweep, seconds: Double) {
        print(
            "\(sweep.name): \(sweep.mutants.count) mutants | " + Self.columns(sweep.counts, crashes: sweep.crashesAndHangs)
                + String(format: " | %.1f s", seconds))
    }

    static func columns(_ counts: [Outcome: Int], crashes: Int) -> String {
        [
            ("both accept (same payload)", counts[.bothAccept]), ("both refuse", counts[.bothRefuse]),
            ("we refuse, OpenSSL accepts", counts[.onlyOpenSSLAccepts]), ("we accept, OpenSSL refuses", counts[.onlyWeAccept]),
            ("we accept a different payload", counts[.differentPayload]), ("crashes or hangs", crashes),
        ]
        .map { "\($0.0) \($0.1 ?? 0)" }.joined(separator: " | ")
    }

    /// Prints the total and the details; true when a must-be-0 line is not 0.
    func printTotal(_ sweeps: [Sweep], seconds: Double) -> Bool {
        var counts: [Outcome: Int] = [:]
        var reasons: [String: Int] = [:]
        var crashes = 0
        for sweep in sweeps {
            counts.merge(sweep.counts, uniquingKeysWith: +)
            reasons.merge(sweep.reasons, uniquingKeysWith: +)
            crashes += sweep.crashesAndHangs
        }
        let total = sweeps.map(\.mutants.count).reduce(0, +)
        print("total: \(total) mutants | " + Self.columns(counts, crashes: crashes) + String(format: " | %.1f s", seconds))
        print("load average at end: \(Self.loadAverage())")
        if !reasons.isEmpty {
            print("")
            print("we refuse, OpenSSL accepts, by our reason:")
            for (reason, count) in reasons.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
                print(String(format: "%7d  ", count) + reason)
            }
        }
        var mustBeZero = 0
        for sweep in sweeps {
            mustBeZero += sweep.mustBeZero
            for finding in sweep.findings.sorted(by: { $0.index < $1.index }).prefix(100) {
                let (offset, bit) = sweep.mutants.flip(finding.index)
                print("MUST BE 0: \(sweep.name) offset \(offset) bit \(bit): \(finding.what)")
            }
        }
        let judged = sweeps.map(\.judged).reduce(0, +)
        print("")
        if judged != total { print("FAIL: \(total - judged) mutants were not judged") }
        print(
            mustBeZero == 0 && judged == total
                ? "PASS: we accept nothing OpenSSL refuses, no different payload, no crash or hang"
                : "FAIL: \(mustBeZero) mutants in a must-be-0 line")
        return mustBeZero != 0 || judged != total
    }

    static func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
    }
}
