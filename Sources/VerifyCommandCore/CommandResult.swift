/// Exit statuses of the tool (sysexits' EX_USAGE for usage errors).
package enum ExitStatus: Int32, Sendable {
    case success = 0
    case verificationFailed = 1
    case malformed = 2
    case usage = 64
}

/// A failure that ends the command with a status and one line on standard error.
package struct ToolFailure: Error, Sendable {
    package let status: ExitStatus
    package let message: String

    package init(status: ExitStatus, message: String) {
        self.status = status
        self.message = message
    }

    package static func usage(_ message: String) -> ToolFailure { ToolFailure(status: .usage, message: message) }
}

/// What a command printed: standard output's text, standard error's one line (empty when it
/// succeeded), and the exit status.
package struct CommandResult: Sendable, Equatable {
    package var standardOutput: String
    package var standardError: String
    package var status: ExitStatus

    package init(standardOutput: String, standardError: String, status: ExitStatus) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.status = status
    }
}

/// The bytes of a file the command names (FILE, `--root CERT`), or why it could not be read.
package enum FileContents: Sendable {
    case bytes([UInt8])
    /// In words: `no such file`, `it is a directory`, `permission denied`, `the read failed`.
    case unreadable(reason: String)
}

/// Standard error's single line.
package enum StandardError {
    /// `text` as one line: control characters inside it (a certificate name or bundle id from
    /// the input may hold a newline) shown escaped, as `\u{A}`, and a newline at the end.
    package static func line(_ text: String) -> String {
        var line = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                line += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                line.unicodeScalars.append(scalar)
            }
        }
        return line + "\n"
    }
}
