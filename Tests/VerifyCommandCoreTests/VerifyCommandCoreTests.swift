import TestHelpers
import Testing
import VerifyCommandCore

/// The Foundation-free `receipt verify`: what it reads comes only from its caller (the clock, the
/// files), which is what lets the WebAssembly module give the native tool's answers.
@Suite struct VerifyCommandCoreTests {
    static func run(_ arguments: [String], now: Int64 = 0, files: [String: [UInt8]]) -> CommandResult {
        VerifyCommand.run(arguments, nowMilliseconds: now) { path in
            files[path].map(FileContents.bytes) ?? .unreadable(reason: "no such file")
        }
    }

    @Test func atNowReadsTheGivenClock() throws {
        let receipt = try Fixtures.bytes("receipts/production.der")
        // The production receipt's signing certificate is valid until 2024-10-01T19:13:56Z.
        let before = Self.run(["r", "--at", "now"], now: 1_700_000_000_000, files: ["r": receipt])   // 2023-11-14
        let after = Self.run(["r", "--at", "now"], now: 1_800_000_000_000, files: ["r": receipt])   // 2027-01-15
        #expect(before.status == .success)
        #expect(before.standardError.isEmpty)
        #expect(before.standardOutput.hasPrefix("valid (appstore): CN=Mac App Store and iTunes Store Receipt Signing"))
        #expect(after.status == .verificationFailed)
        #expect(after.standardOutput.isEmpty)
        #expect(
            after.standardError
                == "not valid: certificate expired (CN=Mac App Store and iTunes Store Receipt Signing,OU=Apple Worldwide Developer Relations,O=Apple Inc.,C=US): notAfter 2024-10-01T19:13:56Z is before 2027-01-15T08:00:00Z; Apple's signing certificates expire while their receipts stay valid: --at receipt (the default) judges them at the receipt's creation date\n"
        )
    }

    @Test func filesComeFromTheCaller() throws {
        let token = try Fixtures.bytes("jws/xcode-signed-transaction.jws")
        let missing = Self.run(["t", "--root", "missing.cer"], files: ["t": token])
        #expect(missing == CommandResult(standardOutput: "", standardError: "cannot read missing.cer: no such file\n", status: .usage))
        let unknown = Self.run(["nothing"], files: [:])
        #expect(unknown == CommandResult(standardOutput: "", standardError: "cannot read nothing: no such file\n", status: .usage))
        let notACertificate = Self.run(["t", "--root", "root.cer"], files: ["t": token, "root.cer": [0x30, 0x00]])
        #expect(notACertificate.status == .usage)
        #expect(notACertificate.standardError.hasPrefix("--root root.cer: not a certificate ("))
        let valid = Self.run(["t", "--policy", "xcode", "--json"], files: ["t": token])
        #expect(valid.status == .success)
        #expect(valid.standardError.isEmpty)
        #expect(valid.standardOutput.hasPrefix("{") && valid.standardOutput.hasSuffix("}\n"))
    }

    @Test func usageErrorsAreOneLine() {
        #expect(Self.run([], files: [:]) == CommandResult(standardOutput: "", standardError: "missing FILE\n", status: .usage))
        #expect(Self.run(["a", "--root"], files: [:]) == CommandResult(standardOutput: "", standardError: "--root needs a value\n", status: .usage))
        let device = Self.run(["r", "--device-guid", "ＡＢ"], files: ["r": [0x30]])
        #expect(device == CommandResult(standardOutput: "", standardError: "--device-guid expects hex digits, not 'ＡＢ'\n", status: .usage))
    }
}
