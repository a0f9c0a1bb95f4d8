import Foundation
import ReceiptService
import Synchronization

/// `receipt-server import`'s progress on a terminal: one line on standard error, redrawn at most
/// ten times a second and at the end. Only when standard error is a terminal (`isatty`); otherwise
/// nothing (the JSON summary on standard output says it all).
final class ImportProgressBar: Sendable {
    private let drawn = Mutex<(at: ContinuousClock.Instant?, width: Int)>((nil, 0))
    let enabled: Bool

    init(enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.enabled = enabled
    }

    /// Redraws the line for `summary` (unless drawn less than 100 ms ago and not done).
    func show(_ summary: ImportSummary) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let line: String? = drawn.withLock { drawn in
            let done = summary.done == summary.requested
            if let at = drawn.at, now - at < .milliseconds(100), !done { return nil }
            drawn.at = now
            let text = Self.line(summary)
            defer { drawn.width = text.count }
            return "\r" + text + String(repeating: " ", count: max(0, drawn.width - text.count)) + (done ? "\n" : "")
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// `[#########-----------]  450/1000  imported 440  skipped 5  failed 5  1,350 transactions`.
    static func line(_ summary: ImportSummary, width: Int = 30) -> String {
        let filled = summary.requested == 0 ? width : width * summary.done / summary.requested
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        return "[\(bar)] \(summary.done)/\(summary.requested)  imported \(summary.imported)  skipped \(summary.skipped)  "
            + "failed \(summary.failed)  \(summary.transactions) transactions"
    }
}
