import AppReceipt
import AppStoreJWS
import LegacyReceipt
import PKCS7
import X509Certificates

/// `receipt verify FILE [--policy appstore|xcode] [--root CERT]... [--bundle-id ID]
/// [--app-version V] [--device-guid HEX] [--at now|receipt|RFC3339] [--json]`, without
/// Foundation: the native tool and the WebAssembly module both run it, so they answer alike.
/// Exit 0 valid, 1 not valid, 2 malformed, 64 usage; one stderr line names the failed rule.
package enum VerifyCommand {
    /// Runs `verify` with `arguments` (those after the command's name). `read` gives the bytes
    /// of FILE and of each `--root`; `nowMilliseconds` is the clock `--at now` reads.
    package static func run(
        _ arguments: [String], nowMilliseconds: Int64, read: @escaping (String) -> FileContents
    ) -> CommandResult {
        var output = CommandOutput()
        do throws(ToolFailure) {
            var options = try Options(arguments)
            try run(&options, context: VerifyContext(nowMilliseconds: nowMilliseconds, read: read), &output)
            return CommandResult(standardOutput: output.text, standardError: "", status: .success)
        } catch {
            return CommandResult(standardOutput: output.text, standardError: StandardError.line(error.message), status: error.status)
        }
    }

    /// The command on parsed options: a StoreKit 2 token, an iOS 6 transaction receipt or an
    /// App Store receipt, told apart by their bytes.
    package static func run(_ options: inout Options, context: VerifyContext, _ output: inout CommandOutput) throws(ToolFailure) {
        let path = try options.file()
        let raw = try context.readRaw(path)
        if let token = CompactJWS.token(in: raw) { return try JWSVerifyCommand.verify(token, &options, context, &output) }
        if TransactionReceipt.recognises(raw) { return try LegacyVerifyCommand.verify(raw, &options, context, &output) }
        let json = options.flag("--json")
        let policy = try self.policy(options.value("--policy") ?? "appstore", roots: options.values("--root"), context)
        let bundle = try options.value("--bundle-id")
        let version = try options.value("--app-version")
        let device = try options.value("--device-guid").map(deviceIdentifier)
        let at = try options.value("--at") ?? "receipt"
        let time = try validationTime(at, context)
        try options.rejectUnknown()

        let receipt = try ReceiptLoader.load(raw, json: json, &output)
        do throws(ReceiptValidationError) {
            let verified = try receipt.validate(
                policy: policy, bundleIdentifier: bundle, appVersion: version,
                deviceIdentifier: device, at: time)
            if json {
                output.write(ReceiptJSON.response(receipt) + "\n")
            } else {
                output.write("valid (\(policy.name)): \(chainText(verified.chain))\n" + ReceiptSummary.text(receipt) + "\n")
            }
        } catch {
            // Embedded certificates are parsed (and a malformed one refused, exit 2) by decoding.
            if json { output.write(ReceiptJSON.failure(.notAuthenticated) + "\n") }
            throw ToolFailure(
                status: .verificationFailed, message: RefusalHint.message(error, judgedNow: at == "now", policy: policy, switches: .receiptTool))
        }
    }

    /// The named policy, with its anchors replaced by `--root` certificates when given.
    package static func policy(_ name: String, roots: [String], _ context: VerifyContext) throws(ToolFailure) -> TrustPolicy {
        try policy(name, roots: roots, appStore: .appStore, xcode: .xcodeTesting, context)
    }

    /// `--policy` chooses between the two given policies; `--root` replaces the chosen one's anchors.
    package static func policy(
        _ name: String, roots: [String], appStore: TrustPolicy, xcode: TrustPolicy, _ context: VerifyContext
    ) throws(ToolFailure) -> TrustPolicy {
        var policy: TrustPolicy
        switch name {
        case "appstore": policy = appStore
        case "xcode": policy = xcode
        default: throw ToolFailure.usage("unknown policy '\(name)' (appstore or xcode)")
        }
        if !roots.isEmpty {
            var anchors: [TrustAnchor] = []
            for path in roots {
                let der = ReceiptInput.decode(try context.readRaw(path))
                do throws(CertificateError) {
                    anchors.append(try TrustAnchor(derEncoded: der))
                } catch {
                    throw ToolFailure.usage("--root \(path): not a certificate (\(error))")
                }
            }
            policy.anchors = anchors
        }
        return policy
    }

    /// `now`, `receipt`, or an RFC 3339 date.
    static func validationTime(_ text: String, _ context: VerifyContext) throws(ToolFailure) -> ValidationTime {
        switch text {
        case "now": return .millisecondsSince1970(context.nowMilliseconds)
        case "receipt": return .receiptCreation
        default:
            guard let milliseconds = RFC3339.milliseconds(text) else {
                throw ToolFailure.usage("--at expects now, receipt or an RFC 3339 date, not '\(text)'")
            }
            return .millisecondsSince1970(milliseconds)
        }
    }

    /// Hex digits (dashes and colons allowed, as in a UUID or MAC address) to bytes.
    package static func deviceIdentifier(_ text: String) throws(ToolFailure) -> [UInt8] {
        let digits = Array(text.utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ":") })
        guard !digits.isEmpty, digits.count % 2 == 0, let bytes = hexBytes(digits) else {
            throw ToolFailure.usage("--device-guid expects hex digits, not '\(text)'")
        }
        return bytes
    }

    /// ASCII hex digit pairs to bytes; nil when one is not a hex digit.
    private static func hexBytes(_ digits: [UInt8]) -> [UInt8]? {
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// A verified chain as `leaf <- intermediate <- root`.
    static func chainText(_ chain: [Certificate]) -> String {
        chain.map { $0.subjectDescription }.joined(separator: " <- ")
    }
}

/// What the command reads from outside: the clock and the files it names.
package struct VerifyContext {
    /// Now, in milliseconds since 1970 (what `--at now` means).
    package let nowMilliseconds: Int64
    /// The bytes of a path (FILE, `--root CERT`), or why they could not be read.
    package let read: (String) -> FileContents

    package init(nowMilliseconds: Int64, read: @escaping (String) -> FileContents) {
        self.nowMilliseconds = nowMilliseconds
        self.read = read
    }

    /// The bytes at `path`, or the usage error that says why there are none.
    package func readRaw(_ path: String) throws(ToolFailure) -> [UInt8] {
        switch read(path) {
        case .bytes(let bytes): return bytes
        case .unreadable(let reason): throw ToolFailure.usage("cannot read \(path): \(reason)")
        }
    }
}

/// Standard output's text, written as the command goes.
package struct CommandOutput: Sendable {
    package private(set) var text = ""

    package init() {}

    package mutating func write(_ text: String) { self.text += text }
}
