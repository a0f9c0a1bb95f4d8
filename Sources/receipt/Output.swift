import Foundation
import VerifyCommandCore

/// Buffered standard output and one-line standard error.
enum Output {
    nonisolated(unsafe) private static var buffer: [UInt8] = []

    static func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    static func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes one line: control characters inside `text` (a certificate name or bundle id from
    /// the input may hold a newline) are shown escaped, as `\u{A}` (`StandardError.line`).
    static func error(_ text: String) {
        errorLine(StandardError.line(text))
    }

    /// Writes a line `StandardError.line` made.
    static func errorLine(_ line: String) {
        FileHandle.standardError.write(Data(line.utf8))
    }
}
