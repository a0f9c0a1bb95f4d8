import AppReceipt
import Foundation
import ReceiptTestSupport
import Testing
import TestHelpers

/// `receipt verify`: exit 0 valid, 1 not valid, 2 malformed, 64 usage; one stderr line naming
/// the rule (DESIGN §7). Fixture facts from fixtures/README.md and the truth files.
@Suite(.enabled(if: Fixtures.shouldRun))
struct VerifyCommandTests {
    static let sandboxGUID = "956328D9-CC6A-47F4-BE40-6953FB0AB6C7"

    @Test(arguments: ["production", "sandbox-g5", "sandbox-legacy"])
    func appleReceiptsAreValid(_ name: String) throws {
        let result = try Run.receipt(["verify", Paths.receipt(name)])
        expectRun(result, status: 0)
        #expect(!result.stdout.isEmpty)
    }

    /// Under the App Store policy an Xcode receipt is refused, and the line says why in words and
    /// what to do instead.
    @Test(arguments: ["xcode", "xcode-with-purchases"])
    func xcodeReceiptsNeedTheXcodePolicy(_ name: String) throws {
        let explained = [
            "signed by Xcode's StoreKit Testing certificate, which the App Store policy does not trust",
            "to read a test receipt use --policy xcode",
        ]
        expectRun(try Run.receipt(["verify", Paths.receipt(name)]), status: 1, errorContains: explained, "\(name) under the App Store policy")
        expectRun(try Run.receipt(["verify", Paths.receipt(name), "--policy", "appstore"]), status: 1, errorContains: explained)
        expectRun(try Run.receipt(["verify", Paths.receipt(name), "--policy", "xcode"]), status: 0)
        expectRun(try Run.receipt(["verify", "--policy", "xcode", Paths.receipt(name)]), status: 0, "options before FILE")
    }

    /// The mirror case: an App Store receipt under the Xcode policy.
    @Test func appleReceiptFailsTheXcodePolicy() throws {
        expectRun(
            try Run.receipt(["verify", Paths.receipt("production"), "--policy", "xcode"]), status: 1,
            errorContains: [
                "signed by the App Store", "which the Xcode testing policy does not trust",
                "to verify an App Store receipt use --policy appstore",
            ])
    }

    /// `--at now` on an old receipt: the signing certificate has expired; the line says so and
    /// points at the default, the receipt's creation date.
    @Test func expiredAtNowPointsAtTheCreationDate() throws {
        expectRun(
            try Run.receipt(["verify", Paths.receipt("production"), "--at", "now"]), status: 1,
            errorContains: ["certificate expired", "--at receipt (the default)"])
        expectRun(
            try Run.receipt(["verify", Paths.receipt("production"), "--at", "2031-01-01T00:00:00Z"]), status: 1,
            errorContains: ["certificate expired"])
        let explicit = try Run.receipt(["verify", Paths.receipt("production"), "--at", "2031-01-01T00:00:00Z"])
        #expect(!explicit.stderr.contains("--at receipt"), "an explicit date is the caller's choice: no hint")
    }

    /// Flipping one bit in the Names of the Apple Root CA copy that production.der carries (and no
    /// path uses) makes the receipt malformed, naming that certificate (index 2) and the rule.
    @Test(arguments: [
        (5004, 0, "not a SET"), (5006, 7, "not a SEQUENCE"), (5008, 0, "not an OBJECT IDENTIFIER"),
        (5013, 0, "is not a PrintableString"), (5026, 0, "is not a DirectoryString"), (5030, 7, "characters a PrintableString"),
        (5136, 0, "not a SET"), (5017, 0, "not a SET"),
    ])
    func flippedNameInTheUnusedRootCopy(_ offset: Int, _ bit: Int, _ rule: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var bytes = try Fixtures.bytes("receipts/production.der")
        bytes[offset] ^= 1 << UInt8(bit)
        let file = directory.file("flipped.der", contents: bytes)
        for command in ["verify", "decode"] {
            expectRun(
                try Run.receipt([command, file.path]), status: 2, errorContains: ["certificate 2", "invalid name", rule],
                "\(command), bit \(bit) of offset \(offset)")
        }
        let json = try Run.receipt(["verify", file.path, "--json"])
        #expect(try Self.status(json) == 21002)
    }

    @Test func forgedSignature() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var bytes = try Fixtures.bytes("receipts/production.der")
        bytes[bytes.count - 20] ^= 0x01   // inside the signature, the envelope's last element
        let file = directory.file("forged.der", contents: bytes)
        expectRun(try Run.receipt(["verify", file.path]), status: 1, errorContains: ["signature"])
    }

    @Test func forgedPayload() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var bytes = try Fixtures.bytes("receipts/sandbox-g5.der")
        let needle = Array("dev.bonzer.weeka.app".utf8)
        let at = try #require((0 ... bytes.count - needle.count).first { bytes[$0 ..< $0 + needle.count].elementsEqual(needle) })
        bytes[at] ^= 0x20
        let file = directory.file("forged.der", contents: bytes)
        expectRun(try Run.receipt(["verify", file.path]), status: 1, errorContains: ["signature"])
        // Decoding makes no trust decision: the forged receipt still decodes.
        expectRun(try Run.receipt(["decode", file.path]), status: 0)
    }

    @Test func validationTime() throws {
        let production = Paths.receipt("production")
        expectRun(try Run.receipt(["verify", production, "--at", "2031-01-01T00:00:00Z"]), status: 1, errorContains: ["expired"])
        expectRun(try Run.receipt(["verify", production, "--at", "now"]), status: 1, errorContains: ["expired"])
        expectRun(try Run.receipt(["verify", production, "--at", "receipt"]), status: 0)
        expectRun(try Run.receipt(["verify", production, "--at", "2024-02-23T17:27:16Z"]), status: 0)
        expectRun(try Run.receipt(["verify", production, "--at", "2024-02-23T18:27:16+01:00"]), status: 0)
        // Leaf notBefore is Sep  2 19:13:57 2022 GMT.
        expectRun(try Run.receipt(["verify", production, "--at", "2022-09-02T19:13:56Z"]), status: 1, errorContains: ["valid"])
        expectRun(try Run.receipt(["verify", production, "--at", "2022-09-02T19:13:57Z"]), status: 0)
    }

    /// RFC 3339 allows fractional seconds (`time-secfrac`) and offsets; its §5.6 note allows
    /// lower-case `t` and `z` too.
    @Test func validationTimeForms() throws {
        let production = Paths.receipt("production")
        expectRun(try Run.receipt(["verify", production, "--at", "2024-02-23T17:27:16.5Z"]), status: 0)
        expectRun(try Run.receipt(["verify", production, "--at", "2024-02-23T09:27:16-08:00"]), status: 0)
        expectRun(try Run.receipt(["verify", production, "--at", "2030-12-31T23:59:59.999Z"]), status: 1, errorContains: ["expired"])
        let lowerCase = try Run.receipt(["verify", production, "--at", "2024-02-23t17:27:16z"])
        expectRun(lowerCase, status: 0)
    }

    @Test func malformedInput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = try Fixtures.bytes("receipts/production.der")
        let truncated = directory.file("truncated.der", contents: Array(bytes.prefix(1000)))
        expectRun(try Run.receipt(["verify", truncated.path]), status: 2, errorContains: ["offset"])
        let garbage = directory.file("garbage.bin", contents: [0x00, 0x01, 0x02, 0xFF, 0xFE])
        expectRun(try Run.receipt(["verify", garbage.path]), status: 2)
        let empty = directory.file("empty.der", contents: [])
        expectRun(try Run.receipt(["verify", empty.path]), status: 2)
        let certificate = Paths.certificate("AppleIncRootCertificate.cer")
        expectRun(try Run.receipt(["verify", certificate]), status: 2, "a certificate is not a receipt")
    }

    @Test func bundleIdentifierAndVersion() throws {
        let production = Paths.receipt("production")
        expectRun(try Run.receipt(["verify", production, "--bundle-id", "org.getpure.pure-iphone"]), status: 0)
        expectRun(try Run.receipt(["verify", production, "--bundle-id", "org.getpure.pure-iphone", "--app-version", "15741"]), status: 0)
        expectRun(try Run.receipt(["verify", production, "--bundle-id", "com.example.other"]), status: 1, errorContains: ["bundle"])
        expectRun(try Run.receipt(["verify", production, "--app-version", "15740"]), status: 1, errorContains: ["version"])
        // Apple's order: the bundle id is checked before the version.
        expectRun(
            try Run.receipt(["verify", production, "--bundle-id", "com.example.other", "--app-version", "1"]), status: 1,
            errorContains: ["bundle"])
    }

    @Test func deviceGUID() throws {
        let sandbox = Paths.receipt("sandbox-g5")
        expectRun(try Run.receipt(["verify", sandbox, "--device-guid", Self.sandboxGUID]), status: 0)
        expectRun(
            try Run.receipt(["verify", sandbox, "--device-guid", Self.sandboxGUID.lowercased().replacingOccurrences(of: "-", with: "")]),
            status: 0)
        expectRun(
            try Run.receipt([
                "verify", sandbox, "--bundle-id", "dev.bonzer.weeka.app", "--app-version", "2",
                "--device-guid", Self.sandboxGUID,
            ]), status: 0)
        expectRun(
            try Run.receipt(["verify", sandbox, "--device-guid", "00000000-0000-0000-0000-000000000000"]), status: 1,
            errorContains: ["device"])
        expectRun(
            try Run.receipt(["verify", sandbox, "--device-guid", "956328D9-CC6A-47F4-BE40-6953FB0AB6C8"]), status: 1,
            errorContains: ["device"])
        expectRun(
            try Run.receipt(["verify", Paths.receipt("production"), "--device-guid", Self.sandboxGUID]), status: 1,
            errorContains: ["device"])
        // A MAC address (macOS's device identifier) is accepted as hex with colons.
        expectRun(try Run.receipt(["verify", sandbox, "--device-guid", "00:1b:63:84:45:e6"]), status: 1, errorContains: ["device"])
    }

    /// An embedded "certificate" that is not one: the input is malformed (2, 21002), not untrusted,
    /// already when decoding (every certificate is parsed with the envelope), naming its index.
    @Test func malformedEmbeddedCertificate() throws {
        let chain = TestChain()
        var payload = TestReceipt()
        payload.bundleIdentifier = "com.example.tool"
        let bytes = chain.signedData(payload.payload(), certificates: [[0x30, 0x03, 0x02, 0x01, 0x05]]).encoded()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("bad-certificate.der", contents: bytes)
        expectRun(try Run.receipt(["decode", file.path]), status: 2, errorContains: ["certificate 0"])
        expectRun(try Run.receipt(["verify", file.path]), status: 2, errorContains: ["certificate 0"])
        let json = try Run.receipt(["verify", file.path, "--json"])
        expectRun(json, status: 2)
        #expect(try Self.status(json) == 21002)
    }

    @Test(.enabled(if: Paths.examplesPresent))
    func exampleSampleWithItsRoot() throws {
        expectRun(try Run.receipt(["verify", Paths.sampleReceipt, "--root", Paths.sampleRoot]), status: 0)
        expectRun(
            try Run.receipt([
                "verify", Paths.sampleReceipt, "--root", Paths.sampleRoot, "--bundle-id", "com.example.receipts",
                "--app-version", "42",
            ]), status: 0)
        expectRun(try Run.receipt(["verify", Paths.sampleReceipt]), status: 1, errorContains: ["trust"], "no --root: the sample is not Apple's")
        expectRun(try Run.receipt(["verify", Paths.sampleReceipt, "--root", Paths.certificate("AppleIncRootCertificate.cer")]), status: 1)
        // Several roots: any of them may anchor the path.
        expectRun(
            try Run.receipt([
                "verify", Paths.sampleReceipt, "--root", Paths.certificate("AppleIncRootCertificate.cer"),
                "--root", Paths.sampleRoot,
            ]), status: 0)
        // The sample root does not anchor Apple's receipts; Apple's own root file does.
        expectRun(try Run.receipt(["verify", Paths.receipt("production"), "--root", Paths.sampleRoot]), status: 1)
        expectRun(try Run.receipt(["verify", Paths.receipt("production"), "--root", Paths.certificate("AppleIncRootCertificate.cer")]), status: 0)
    }

    @Test(.enabled(if: Paths.examplesPresent && Run.opensslAvailable))
    func pemRoot() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pem = directory.url.appendingPathComponent("root.pem")
        let converted = try Run.openssl(["x509", "-inform", "DER", "-in", Paths.sampleRoot, "-outform", "PEM", "-out", pem.path])
        #expect(converted.status == 0)
        expectRun(try Run.receipt(["verify", Paths.sampleReceipt, "--root", pem.path]), status: 0)
        let base64 = directory.file("root.b64", text: Data(try readBytes(Paths.sampleRoot)).base64EncodedString(options: .lineLength76Characters))
        expectRun(try Run.receipt(["verify", Paths.sampleReceipt, "--root", base64.path]), status: 0)
    }

    @Test func jsonResponses() throws {
        let production = Paths.receipt("production")
        let valid = try Run.receipt(["verify", production, "--json"])
        expectRun(valid, status: 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(valid.stdout)) as? [String: Any])
        #expect((object["status"] as? NSNumber)?.int64Value == 0)
        #expect(object["environment"] as? String == "Production")
        let receipt = try #require(object["receipt"] as? [String: Any])
        #expect(receipt["bundle_id"] as? String == "org.getpure.pure-iphone")
        #expect(receipt["receipt_creation_date"] as? String == "2024-02-23 17:27:16 Etc/GMT")
        let library = try JSONSerialization.jsonObject(
            with: Data(ReceiptJSON.response(try AppReceipt(Fixtures.bytes("receipts/production.der"))).utf8))
        #expect(NSDictionary(dictionary: object).isEqual(library))

        let sandbox = try Run.receipt(["verify", Paths.receipt("sandbox-g5"), "--json"])
        expectRun(sandbox, status: 0)
        let sandboxObject = try #require(try JSONSerialization.jsonObject(with: Data(sandbox.stdout)) as? [String: Any])
        #expect(sandboxObject["environment"] as? String == "Sandbox")

        let xcode = try Run.receipt(["verify", Paths.receipt("xcode"), "--policy", "xcode", "--json"])
        expectRun(xcode, status: 0)
        #expect((try JSONSerialization.jsonObject(with: Data(xcode.stdout)) as? [String: Any])?["environment"] as? String == "Xcode")

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var bytes = try Fixtures.bytes("receipts/production.der")
        bytes[bytes.count - 20] ^= 0x01
        let forged = try Run.receipt(["verify", directory.file("forged.der", contents: bytes).path, "--json"])
        expectRun(forged, status: 1)
        #expect(try Self.status(forged) == 21003)

        let untrusted = try Run.receipt(["verify", Paths.receipt("xcode"), "--json"])
        expectRun(untrusted, status: 1)
        #expect(try Self.status(untrusted) == 21003)

        let mismatch = try Run.receipt(["verify", production, "--bundle-id", "x", "--json"])
        expectRun(mismatch, status: 1)
        #expect(try Self.status(mismatch) == 21003)

        let truncated = directory.file("truncated.der", contents: Array(try Fixtures.bytes("receipts/production.der").prefix(500)))
        let malformed = try Run.receipt(["verify", truncated.path, "--json"])
        expectRun(malformed, status: 2)
        #expect(try Self.status(malformed) == 21002)
    }

    /// The `status` of a failure response, which must hold nothing else.
    static func status(_ result: RunResult) throws -> Int64? {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        #expect(Set(object.keys) == ["status"])
        return (object["status"] as? NSNumber)?.int64Value
    }
}
