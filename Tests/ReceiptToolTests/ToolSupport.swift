import Foundation
import Testing
import TestHelpers

/// What one run of a program did.
struct RunResult: CustomStringConvertible {
    let status: Int32
    let stdout: [UInt8]
    let stderr: String

    var output: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard error split into lines (without the final newline).
    var errorLines: [Substring] { stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast(stderr.hasSuffix("\n") ? 1 : 0) }

    var description: String { "exit \(status), stderr: \(stderr.debugDescription), stdout: \(output.prefix(300).debugDescription)" }
}

enum Run {
    /// The `receipt` executable built with the tests.
    static let tool: URL? = BuiltExecutable.url("receipt")

    static let openssl: URL? = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/bin/openssl"]
        .map(URL.init(fileURLWithPath:)).first { FileManager.default.isExecutableFile(atPath: $0.path) }

    static var opensslAvailable: Bool { openssl != nil }

    /// Runs `receipt` with `arguments`, feeding `stdin` to its standard input.
    static func receipt(_ arguments: [String], stdin: [UInt8] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
        let tool = try #require(Self.tool, "the receipt executable was not found beside the tests", sourceLocation: sourceLocation)
        return try program(tool, arguments, stdin: stdin)
    }

    /// Runs `openssl` with `arguments`.
    static func openssl(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
        let tool = try #require(Self.openssl, "openssl not found", sourceLocation: sourceLocation)
        return try program(tool, arguments, stdin: [])
    }

    /// Runs a program; standard streams go through files, so no pipe can fill up.
    static func program(_ executable: URL, _ arguments: [String], stdin: [UInt8] = [], environment: [String: String]? = nil) throws -> RunResult {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = directory.file("stdin", contents: stdin)
        let output = directory.file("stdout", contents: [])
        let error = directory.file("stderr", contents: [])
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let inHandle = try FileHandle(forReadingFrom: input)
        let outHandle = try FileHandle(forWritingTo: output)
        let errHandle = try FileHandle(forWritingTo: error)
        process.standardInput = inHandle
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        try inHandle.close()
        try outHandle.close()
        try errHandle.close()
        return RunResult(
            status: process.terminationStatus, stdout: [UInt8](try Data(contentsOf: output)),
            stderr: String(decoding: try Data(contentsOf: error), as: UTF8.self))
    }
}

/// A fresh directory under the system's temporary directory; `remove()` it when done
/// (`defer { directory.remove() }`, which also keeps it alive to the end of the scope).
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-tool-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Writes `contents` to `name` and returns its URL.
    @discardableResult
    func file(_ name: String, contents: [UInt8]) -> URL {
        let file = url.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(contents))
        return file
    }

    func file(_ name: String, text: String) -> URL { file(name, contents: Array(text.utf8)) }
}

/// Paths of the inputs the tool tests use.
enum Paths {
    static func receipt(_ name: String) -> String { Fixtures.url("receipts/\(name).der").path }
    static func certificate(_ name: String) -> String { Fixtures.url("certs/\(name)").path }

    /// `Examples/` of the package: beside the package root, or (in a development package that
    /// links its folders to the real one) beside the real `Tests` folder.
    static let examples: URL = {
        let direct = Fixtures.packageRoot.appendingPathComponent("Examples")
        if FileManager.default.fileExists(atPath: direct.path) { return direct }
        let tests = Fixtures.packageRoot.appendingPathComponent("Tests/TestHelpers").resolvingSymlinksInPath()
        return tests.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")
    }()

    static var sampleReceipt: String { examples.appendingPathComponent("sample-receipt.der").path }
    static var sampleRoot: String { examples.appendingPathComponent("sample-root.der").path }
    static var examplesPresent: Bool { FileManager.default.fileExists(atPath: examples.appendingPathComponent("sample-receipt.der").path) }
}

/// Checks the tool's contract for one run: the exit status and, on failure, exactly one line on
/// standard error (DESIGN §7); on success nothing on standard error.
func expectRun(
    _ result: RunResult, status: Int32, errorContains needles: [String] = [], _ comment: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.status == status, "\(comment) \(result)", sourceLocation: sourceLocation)
    if status == 0 {
        #expect(result.stderr.isEmpty, "\(comment) stderr should be empty: \(result.stderr.debugDescription)", sourceLocation: sourceLocation)
    } else {
        #expect(
            result.errorLines.count == 1 && result.stderr.hasSuffix("\n") && !result.stderr.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
            "\(comment) expected one line on stderr: \(result.stderr.debugDescription)", sourceLocation: sourceLocation)
        for needle in needles {
            #expect(
                result.stderr.localizedCaseInsensitiveContains(needle),
                "\(comment) stderr should mention '\(needle)': \(result.stderr.debugDescription)",
                sourceLocation: sourceLocation)
        }
    }
}

func readBytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}
