import Foundation

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
    /// the input may hold a newline) are shown escaped, as `\u{A}`.
    static func error(_ text: String) {
        var line = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                line += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                line.unicodeScalars.append(scalar)
            }
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
