import Foundation
import ReceiptBenchmarkCases

/// The readable table, the throughput and linearity lines, and one machine-readable line per case:
/// `RESULT name=<case> ours_us=<median> openssl_us=<median> swift_asn1_us=<median or ->`.
struct Report {
    var measurements: [Runner.Measurement] = []

    struct Verdict {
        let ratios: [Peer: Double]
        let pass: Bool?
    }

    static func verdict(_ m: Runner.Measurement) -> Verdict {
        var ratios: [Peer: Double] = [:]
        var pass: Bool? = nil
        guard let ours = m.median(.ours) else { return Verdict(ratios: [:], pass: m.errors[.ours] == nil ? nil : false) }
        for peer in [Peer.openssl, .swift] {
            guard let theirs = m.median(peer), theirs > 0 else { continue }
            ratios[peer] = ours / theirs
            if let limit = m.benchmarkCase.target.maxRatio[peer] {
                pass = (pass ?? true) && ours / theirs <= limit
            }
        }
        return Verdict(ratios: ratios, pass: pass)
    }

    func printTable() {
        let header = ["case", "ours µs", "openssl µs", "swift-asn1 µs", "ours/openssl", "ours/swift", "spread", "target", "status"]
        var rows: [[String]] = []
        for m in measurements {
            let verdict = Self.verdict(m)
            rows.append([
                m.benchmarkCase.name,
                m.cell(.ours), m.cell(.openssl), m.cell(.swift),
                Self.ratio(verdict.ratios[.openssl]), Self.ratio(verdict.ratios[.swift]),
                String(format: "±%.0f%%", m.spread * 50),
                m.benchmarkCase.target.text,
                verdict.pass.map { $0 ? "PASS" : "FAIL" } ?? "-",
            ])
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 || index >= 7 ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        print(line(header))
        print(line(widths.map { String(repeating: "-", count: $0) }))
        rows.forEach { print(line($0)) }
    }

    /// MB/s for the digest cases.
    func printThroughput() {
        let digests = measurements.filter { $0.benchmarkCase.name.hasPrefix("sha") }
        guard !digests.isEmpty else { return }
        print("")
        print("Digest throughput (MB/s = 10^6 bytes/s):")
        for m in digests {
            let cells = Peer.allCases.map { peer -> String in
                guard let micros = m.median(peer) else { return "\(peer.title) -" }
                return "\(peer.title) " + String(format: "%.0f", Double(m.benchmarkCase.byteCount) / micros)
            }
            print("  \(m.benchmarkCase.name): " + cells.joined(separator: ", "))
        }
    }

    /// Decode must grow linearly with the in-app count: the marginal cost per purchase from
    /// 1,000 to 10,000 purchases may be at most 1.5× the one from 100 to 1,000.
    func printLinearity() {
        var ours: [Int: Double] = [:]
        for m in measurements where m.benchmarkCase.name.hasPrefix("decode/synthetic-") {
            if let count = Int(m.benchmarkCase.name.dropFirst("decode/synthetic-".count)), let median = m.median(.ours) {
                ours[count] = median
            }
        }
        guard !ours.isEmpty else { return }
        print("")
        let perPurchase = ours.keys.sorted().map { String(format: "%d: %.3f", $0, ours[$0]! / Double($0)) }
        print("Decode µs per in-app purchase (ours): " + perPurchase.joined(separator: ", "))
        if let t100 = ours[100], let t1000 = ours[1_000], let t10000 = ours[10_000] {
            let low = (t1000 - t100) / 900, high = (t10000 - t1000) / 9_000
            let status = high <= 1.5 * low ? "PASS" : "FAIL"
            print(
                String(
                    format: "LINEARITY marginal µs/purchase 100→1000: %.3f, 1000→10000: %.3f (ratio %.2f, target ≤1.5) ",
                    low, high, high / low) + status)
        }
    }

    func printResults() {
        print("")
        for m in measurements {
            let cells = Peer.allCases.map { peer in
                "\(peer.column)_us=" + (m.errors[peer] != nil ? "error" : m.median(peer).map { String(format: "%.3f", $0) } ?? "-")
            }
            print("RESULT name=\(m.benchmarkCase.name) " + cells.joined(separator: " "))
        }
    }

    var errors: [String] {
        measurements.flatMap { m in
            m.errors.sorted { $0.key < $1.key }.map { "\(m.benchmarkCase.name) \($0.key.title): \($0.value)" }
        }
    }

    var failures: [String] {
        measurements.filter { Self.verdict($0).pass == false }.map(\.benchmarkCase.name)
    }

    static func micros(_ value: Double?) -> String {
        guard let value else { return "-" }
        switch value {
        case ..<10: return String(format: "%.3f", value)
        case ..<1_000: return String(format: "%.1f", value)
        default: return String(format: "%.0f", value)
        }
    }

    static func ratio(_ value: Double?) -> String {
        guard let value else { return "-" }
        return value < 0.1 ? String(format: "%.3f×", value) : String(format: "%.2f×", value)
    }
}

extension Runner.Measurement {
    /// A peer's median for the table, "error" when it failed, "-" when it has no implementation.
    func cell(_ peer: Peer) -> String {
        errors[peer] != nil ? "error" : Report.micros(median(peer))
    }
}
