import Foundation

/// Exit statuses of the tool (sysexits' EX_USAGE for usage errors).
enum ExitStatus: Int32 {
    case success = 0
    case verificationFailed = 1
    case malformed = 2
    case usage = 64
}

/// A failure that ends the command with a status and one line on standard error.
struct ToolFailure: Error {
    let status: ExitStatus
    let message: String

    static func usage(_ message: String) -> ToolFailure { ToolFailure(status: .usage, message: message) }
}

enum Tool {
    static let usage = """
        usage: receipt verify FILE [--policy appstore|xcode] [--root CERT]... [--bundle-id ID]
                              [--app-version V] [--device-guid HEX] [--at now|receipt|RFC3339] [--json]
               receipt decode FILE [--json]
               receipt dump FILE [--strict]
        FILE is binary DER/BER, base64 text, or - for standard input; verify and decode also take
        StoreKit 2 signed data (a compact JWS, text starting eyJ): --at defaults to its signedDate;
        and iOS 6 transaction receipts (the { "signature" = …; } text or its base64): --at
        defaults to their purchase date.
        """

    /// Runs one command line; never traps on any input.
    static func run(_ arguments: [String]) -> ExitStatus {
        guard let command = arguments.first else {
            Output.error("missing command: verify, decode or dump (receipt --help shows the usage)")
            return .usage
        }
        do {
            var options = try Options(Array(arguments.dropFirst()))
            switch command {
            case "verify": try VerifyCommand.run(&options)
            case "decode": try DecodeCommand.run(&options)
            case "dump": try DumpCommand.run(&options)
            case "-h", "--help", "help":
                Output.write(usage + "\n")
                return .success
            default: throw ToolFailure.usage("unknown command '\(command)': verify, decode or dump (receipt --help shows the usage)")
            }
            return .success
        } catch let failure as ToolFailure {
            Output.error(failure.message)
            return failure.status
        } catch {
            Output.error("\(error)")
            return .malformed
        }
    }
}
