import Foundation
import ReceiptTestSupport

/// Byte-level mutations for driving the `receipt` tool, which runs one process per input and so
/// cannot use libFuzzer: bit flips, boundary values, deletions, insertions, duplications,
/// truncation, splicing, length-octet tweaks next to common tags, base64 re-encoding, garbage.
public enum Mutator: Sendable {
    static let interesting: [UInt8] = [
        0x00, 0x01, 0x02, 0x04, 0x05, 0x06, 0x0A, 0x0C, 0x0D, 0x16, 0x17, 0x1F, 0x22, 0x24, 0x30,
        0x31, 0x5C, 0x7F, 0x80, 0x81, 0x82, 0x83, 0x84, 0x88, 0xA0, 0xA3, 0xC3, 0xFF,
    ]

    /// `seed` changed by one to four mutations (`other`, when given, is spliced in sometimes).
    public static func mutate(_ seed: [UInt8], other: [UInt8]? = nil, _ rng: inout SplitMix64) -> [UInt8] {
        if rng.below(40) == 0 { return (0 ..< rng.below(300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
        var bytes = seed
        for _ in 0 ... rng.below(4) {
            if bytes.isEmpty { bytes = [UInt8(truncatingIfNeeded: rng.next())] }
            let at = rng.below(bytes.count)
            switch rng.below(11) {
            case 0, 1: bytes[at] ^= 1 << UInt8(rng.below(8))
            case 2: bytes[at] = interesting[rng.below(interesting.count)]
            case 3: bytes.removeSubrange(at ..< min(bytes.count, at + 1 + rng.below(16)))
            case 4: bytes.insert(contentsOf: (0 ... rng.below(8)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }, at: at)
            case 5:
                let end = min(bytes.count, at + 1 + rng.below(64))
                bytes.insert(contentsOf: bytes[at ..< end], at: rng.below(bytes.count))
            case 6: bytes.removeSubrange(rng.below(bytes.count + 1) ..< bytes.count)
            case 7:
                if let other, !other.isEmpty {
                    bytes = Array(bytes.prefix(at)) + other.suffix(from: rng.below(other.count))
                }
            default:
                // A length octet after a common tag: off by one, long form, indefinite.
                let tags: Set<UInt8> = [0x02, 0x04, 0x06, 0x0C, 0x16, 0x17, 0x24, 0x30, 0x31, 0xA0, 0xA3]
                if let tag = (at ..< bytes.count).first(where: { tags.contains(bytes[$0]) }), tag + 1 < bytes.count {
                    switch rng.below(4) {
                    case 0: bytes[tag + 1] &+= 1
                    case 1: bytes[tag + 1] &-= 1
                    case 2: bytes[tag + 1] = 0x80
                    default: bytes.insert(0x81, at: tag + 1)
                    }
                }
            }
        }
        if rng.below(16) == 0 {
            bytes = Array(Data(bytes).base64EncodedString(options: rng.below(2) == 0 ? [] : .lineLength64Characters).utf8)
        }
        return bytes
    }
}

/// The `tool` target: the `receipt` executable on hostile files, one process per run.
///
/// Invariants (DESIGN §7): the process exits by itself (no signal, no hang) with 0, 1 or 2 (64 is
/// a usage error, impossible for these valid command lines); on 1 or 2 standard error is exactly
/// one line, on 0 it is empty; `--json` prints one JSON object whose status matches the exit
/// (0 → 0, 1 → 21003, 2 → 21002; `decode` on 0 prints `{"receipt": {…}}`, no status); `verify` never succeeds on an input made from synthetic
/// seeds, which no default anchor trusts.
public enum ToolHarness: Sendable {
    /// A command line shape; the file operand is appended (or `-` with the input on stdin).
    public struct Mode: Sendable {
        public let name: String
        public let arguments: [String]
        public var isVerify: Bool { arguments.first == "verify" }
        public var isJSON: Bool { arguments.contains("--json") }
    }

    public static let modes: [Mode] = [
        Mode(name: "verify", arguments: ["verify"]),
        Mode(name: "verify-xcode-json", arguments: ["verify", "--policy", "xcode", "--json"]),
        Mode(
            name: "verify-bundle-device",
            arguments: ["verify", "--bundle-id", "com.example.receipts", "--device-guid", "000102030405060708090a0b0c0d0e0f", "--at", "now"]),
        Mode(name: "decode", arguments: ["decode"]),
        Mode(name: "decode-json", arguments: ["decode", "--json"]),
        Mode(name: "dump", arguments: ["dump"]),
        Mode(name: "dump-strict", arguments: ["dump", "--strict"]),
    ]

    /// What one run did.
    public struct Outcome: Sendable {
        public var status: Int32
        public var exited: Bool
        public var timedOut: Bool
        public var stdout: [UInt8]
        public var stderr: String
    }

    /// Runs `tool` with `arguments`, standard streams through files in `directory`, killing it
    /// after `timeout` seconds.
    public static func run(
        _ tool: URL, _ arguments: [String], stdin: [UInt8] = [], in directory: URL,
        timeout: TimeInterval = 20
    ) throws -> Outcome {
        let input = directory.appendingPathComponent("stdin")
        let output = directory.appendingPathComponent("stdout")
        let error = directory.appendingPathComponent("stderr")
        try Data(stdin).write(to: input)
        try Data().write(to: output)
        try Data().write(to: error)
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment["ASAN_OPTIONS"] = "exitcode=99:detect_leaks=0:abort_on_error=0"
        process.environment = environment
        let inHandle = try FileHandle(forReadingFrom: input)
        let outHandle = try FileHandle(forWritingTo: output)
        let errHandle = try FileHandle(forWritingTo: error)
        defer {
            try? inHandle.close()
            try? outHandle.close()
            try? errHandle.close()
        }
        process.standardInput = inHandle
        process.standardOutput = outHandle
        process.standardError = errHandle
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        var timedOut = false
        if done.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.terminate()
            if done.wait(timeout: .now() + 5) == .timedOut { kill(process.processIdentifier, SIGKILL); done.wait() }
        }
        return Outcome(
            status: process.terminationStatus, exited: process.terminationReason == .exit, timedOut: timedOut,
            stdout: [UInt8]((try? Data(contentsOf: output)) ?? Data()),
            stderr: String(decoding: (try? Data(contentsOf: error)) ?? Data(), as: UTF8.self))
    }

    /// Runs `mode` on `input` (written to `directory`, or given on stdin) and checks the outcome.
    /// `fromSyntheticSeed`: the input was made from the project's synthetic inputs, so `verify`
    /// must not accept it. Returns the exit status.
    @discardableResult
    public static func check(
        tool: URL, input: [UInt8], mode: Mode, viaStdin: Bool = false, fromSyntheticSeed: Bool,
        in directory: URL, timeout: TimeInterval = 20
    ) throws -> Int32 {
        let check = Checker(harness: "tool \(mode.name)")
        let file = directory.appendingPathComponent("input")
        try Data(input).write(to: file)
        let outcome = try run(
            tool, mode.arguments + [viaStdin ? "-" : file.path], stdin: viaStdin ? input : [], in: directory,
            timeout: timeout)
        try check.expect(!outcome.timedOut, "did not finish within \(Int(timeout)) s")
        try check.expect(outcome.exited, "killed by signal \(outcome.status); stderr: \(outcome.stderr.suffix(2000))")
        try check.expect([0, 1, 2].contains(outcome.status), "exit status \(outcome.status); stderr: \(outcome.stderr.suffix(2000))")
        let lines = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        if outcome.status == 0 {
            try check.expect(outcome.stderr.isEmpty, "status 0 with standard error \(outcome.stderr.prefix(300).debugDescription)")
        } else {
            try check.expect(
                lines.count == 2 && lines[1].isEmpty && !lines[0].isEmpty,
                "status \(outcome.status): standard error is not one line: \(outcome.stderr.prefix(500).debugDescription)")
        }
        if mode.isJSON {
            let object = try? JSONSerialization.jsonObject(with: Data(outcome.stdout)) as? [String: Any]
            let status = (object?["status"] as? NSNumber)?.intValue
            let printed = String(decoding: outcome.stdout.prefix(200), as: UTF8.self)
            if outcome.status == 0 && !mode.isVerify {
                // decode verified nothing: the receipt alone, no status.
                try check.expect(
                    object?.keys.sorted() == ["receipt"] && object?["receipt"] is [String: Any],
                    "decode --json printed something else than {\"receipt\": {…}} for exit 0: \(printed)")
            } else {
                let expected = [0: 0, 1: 21003, 2: 21002][Int(outcome.status)]
                try check.expect(
                    status != nil && status == expected,
                    "--json printed status \(String(describing: status)) for exit \(outcome.status): \(printed)")
            }
        }
        if mode.isVerify && fromSyntheticSeed {
            try check.expect(outcome.status != 0, "verify accepted an input made from synthetic seeds")
        }
        return outcome.status
    }
}
