import Foundation
import Testing
import TestHelpers

/// Usage errors exit 64 (sysexits EX_USAGE) with one line on standard error (DESIGN §7).
@Suite(.enabled(if: Fixtures.shouldRun))
struct UsageTests {
    static var production: String { Paths.receipt("production") }

    static let cases: [(arguments: [String], mentions: String)] = [
        (["verify", production, "--frob"], "--frob"),
        (["decode", production, "--strict"], "--strict"),
        (["dump", production, "--json"], "--json"),
        (["verify"], "FILE"),
        (["decode"], "FILE"),
        (["dump"], "FILE"),
        (["verify", production, production], "FILE"),
        (["verify", production, "--policy", "foo"], "foo"),
        (["verify", production, "--policy"], "--policy"),
        (["verify", production, "--device-guid", "xyz"], "xyz"),
        (["verify", production, "--device-guid", "ABC"], "ABC"),
        (["verify", production, "--device-guid", ""], "device"),
        (["verify", production, "--at", "tomorrow"], "tomorrow"),
        (["verify", production, "--at", "2024-13-01T00:00:00Z"], "2024-13-01"),
        (["verify", production, "--at", "2024-02-23T17:27:16"], "--at"),
        (["verify", production, "--bundle-id", "a", "--bundle-id", "b"], "--bundle-id"),
        (["verify", "/nonexistent/receipt.der"], "/nonexistent/receipt.der"),
        (["decode", "/nonexistent/receipt.der"], "/nonexistent/receipt.der"),
        (["dump", "/nonexistent/receipt.der"], "/nonexistent/receipt.der"),
        (["verify", production, "--root", "/nonexistent/root.der"], "/nonexistent/root.der"),
    ]

    @Test(arguments: 0 ..< cases.count)
    func usageError(_ index: Int) throws {
        let entry = Self.cases[index]
        expectRun(try Run.receipt(entry.arguments), status: 64, errorContains: [entry.mentions], "\(entry.arguments)")
    }

    @Test func unknownCommand() throws {
        let result = try Run.receipt(["frob", Self.production])
        #expect(result.status == 64)
        #expect(result.stderr.contains("frob"))
        expectRun(result, status: 64)
    }

    @Test func noArguments() throws {
        let result = try Run.receipt([])
        #expect(result.status == 64)
        expectRun(result, status: 64)
    }

    @Test func unreadableFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        expectRun(try Run.receipt(["verify", directory.url.path]), status: 64, "a directory")
        expectRun(try Run.receipt(["dump", directory.url.path]), status: 64, "a directory")
    }

    @Test func help() throws {
        let result = try Run.receipt(["--help"])
        expectRun(result, status: 0)
        #expect(result.output.contains("receipt verify FILE"))
        #expect(result.output.contains("receipt dump FILE"))
    }
}
