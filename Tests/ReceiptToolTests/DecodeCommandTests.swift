import AppReceipt
import Foundation
import Testing
import TestHelpers

/// `receipt decode FILE [--json]`: parse only, no trust decision; 0 or 2.
@Suite(.enabled(if: Fixtures.shouldRun))
struct DecodeCommandTests {
    static func truthBundle(_ name: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url("truth/\(name).json")))
        let fields = try #require((object as? [String: Any])?["fields"] as? [String: Any])
        return try #require(fields["bundle_id"] as? String)
    }

    @Test(arguments: Fixtures.receiptNames)
    func everyFixtureDecodes(_ name: String) throws {
        let result = try Run.receipt(["decode", Paths.receipt(name)])
        expectRun(result, status: 0)
        #expect(result.output.contains(try Self.truthBundle(name)))
    }

    @Test(arguments: Fixtures.receiptNames)
    func everyFixtureDecodesToJSON(_ name: String) throws {
        let result = try Run.receipt(["decode", Paths.receipt(name), "--json"])
        expectRun(result, status: 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        // Nothing was verified: no verifyReceipt status, only the receipt.
        #expect(Set(object.keys) == ["receipt"])
        #expect((object["receipt"] as? [String: Any])?["bundle_id"] as? String == (try Self.truthBundle(name)))
        let library = try JSONSerialization.jsonObject(with: Data(ReceiptJSON.response(try AppReceipt(Fixtures.bytes("receipts/\(name).der"))).utf8))
        #expect(NSDictionary(dictionary: object["receipt"] as? [String: Any] ?? [:]).isEqual((library as? [String: Any])?["receipt"]))
    }

    /// The tool prints exactly the library's receipt object under `receipt` (and a newline).
    @Test func productionJSONIsTheLibrarysReceiptObject() throws {
        let result = try Run.receipt(["decode", Paths.receipt("production"), "--json"])
        expectRun(result, status: 0)
        let library = ReceiptJSON.receiptObject(try AppReceipt(Fixtures.bytes("receipts/production.der")))
        #expect(result.output == #"{"receipt":"# + library + "}\n")
    }

    /// Input that cannot be a receipt at all says so and what was expected, instead of a DER
    /// decoding rule at offset 0; an unreadable path says why.
    @Test func notAReceiptIsSaid() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let inputs: [(String, [UInt8], String)] = [
            ("hello.txt", Array("hello world\n".utf8), "not a receipt: this is neither DER"),
            ("empty.txt", [], "not a receipt: the input is empty"),
            ("text.b64", Array(Data("not a receipt at all".utf8).base64EncodedString().utf8), "not a receipt: this is neither DER"),
        ]
        for (name, bytes, expected) in inputs {
            let result = try Run.receipt(["decode", directory.file(name, contents: bytes).path])
            expectRun(result, status: 2)
            #expect(result.stderr.contains(expected), "\(name): \(result.stderr)")
            #expect(result.stderr.contains("eyJ") || bytes.isEmpty, "names what a token looks like: \(result.stderr)")
        }
        // A DER receipt cut short keeps its precise rule.
        let cut = Array(try Fixtures.bytes("receipts/production.der").prefix(100))
        let truncated = try Run.receipt(["decode", directory.file("cut.der", contents: cut).path])
        expectRun(truncated, status: 2)
        #expect(truncated.stderr.contains("malformed receipt:"), "\(truncated.stderr)")
        let missing = try Run.receipt(["decode", directory.url.appendingPathComponent("absent.der").path])
        #expect(missing.stderr.contains("no such file"), "\(missing.stderr)")
        let folder = try Run.receipt(["decode", directory.url.path])
        #expect(folder.stderr.contains("it is a directory"), "\(folder.stderr)")
    }

    @Test(.enabled(if: Paths.examplesPresent))
    func exampleSampleDecodes() throws {
        let result = try Run.receipt(["decode", Paths.sampleReceipt])
        expectRun(result, status: 0)
        #expect(result.output.contains("com.example.receipts"))
        #expect(result.output.contains("com.example.receipts.pro.monthly"))
    }

    @Test func malformedInputs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let garbage = directory.file("garbage.bin", contents: Array("this is not a receipt\n".utf8) + [0xFF, 0x00])
        expectRun(try Run.receipt(["decode", garbage.path]), status: 2)
        let json = try Run.receipt(["decode", garbage.path, "--json"])
        expectRun(json, status: 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
        #expect(Set(object.keys) == ["status"])
        #expect((object["status"] as? NSNumber)?.int64Value == 21002)

        let bytes = try Fixtures.bytes("receipts/sandbox-legacy.der")
        for length in [0, 1, 2, 100, bytes.count / 2, bytes.count - 1] {
            let truncated = directory.file("truncated-\(length).der", contents: Array(bytes.prefix(length)))
            expectRun(try Run.receipt(["decode", truncated.path]), status: 2, "\(length) bytes")
        }
        let trailing = directory.file("trailing.der", contents: bytes + [0x00, 0x00, 0x01])
        expectRun(try Run.receipt(["decode", trailing.path]), status: 2, "trailing bytes")
        expectRun(try Run.receipt(["decode", Paths.certificate("StoreKitTestCertificate.cer")]), status: 2, "a certificate")
    }

    /// Decoding does not judge trust: an Xcode receipt decodes without `--policy`.
    @Test func decodeMakesNoTrustDecision() throws {
        expectRun(try Run.receipt(["decode", Paths.receipt("xcode")]), status: 0)
        expectRun(try Run.receipt(["decode", Paths.receipt("production")]), status: 0)
    }
}

/// FILE as binary, base64 text (with line breaks), PEM, or `-` for standard input.
@Suite(.enabled(if: Fixtures.shouldRun))
struct InputFormTests {
    @Test func base64Files() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = try Fixtures.bytes("receipts/production.der")
        let data = Data(bytes)
        let forms: [(String, String)] = [
            ("plain.b64", data.base64EncodedString()),
            ("lines64.b64", data.base64EncodedString(options: .lineLength64Characters) + "\n"),
            ("crlf76.b64", data.base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])),
            (
                "indented.b64",
                "\n  " + data.base64EncodedString(options: .lineLength64Characters).replacingOccurrences(of: "\n", with: "\n\t") + "\n\n"
            ),
            ("armored.pem", "-----BEGIN PKCS7-----\n" + data.base64EncodedString(options: .lineLength64Characters) + "\n-----END PKCS7-----\n"),
        ]
        let reference = try Run.receipt(["decode", Paths.receipt("production"), "--json"])
        for (name, text) in forms {
            let file = directory.file(name, text: text)
            expectRun(try Run.receipt(["verify", file.path]), status: 0, name)
            let decoded = try Run.receipt(["decode", file.path, "--json"])
            expectRun(decoded, status: 0, name)
            #expect(decoded.stdout == reference.stdout, "\(name)")
        }
    }

    @Test(.enabled(if: Run.opensslAvailable))
    func opensslBase64() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("receipt.b64")
        let encoded = try Run.openssl(["base64", "-in", Paths.receipt("sandbox-g5"), "-out", file.path])
        #expect(encoded.status == 0)
        expectRun(try Run.receipt(["verify", file.path, "--device-guid", VerifyCommandTests.sandboxGUID]), status: 0)
    }

    @Test func standardInput() throws {
        let bytes = try Fixtures.bytes("receipts/production.der")
        expectRun(try Run.receipt(["verify", "-"], stdin: bytes), status: 0, "binary on stdin")
        expectRun(try Run.receipt(["verify", "-", "--bundle-id", "org.getpure.pure-iphone"], stdin: bytes), status: 0)
        let text = Array(Data(bytes).base64EncodedString(options: .lineLength64Characters).utf8)
        expectRun(try Run.receipt(["verify", "-"], stdin: text), status: 0, "base64 on stdin")
        let fromFile = try Run.receipt(["decode", Paths.receipt("production"), "--json"])
        let fromStdin = try Run.receipt(["decode", "-", "--json"], stdin: bytes)
        expectRun(fromStdin, status: 0)
        #expect(fromStdin.stdout == fromFile.stdout)
        let dumpFile = try Run.receipt(["dump", Paths.receipt("xcode")])
        let dumpStdin = try Run.receipt(["dump", "-"], stdin: try Fixtures.bytes("receipts/xcode.der"))
        expectRun(dumpStdin, status: 0)
        #expect(dumpStdin.stdout == dumpFile.stdout)
        expectRun(try Run.receipt(["verify", "-"], stdin: []), status: 2, "empty stdin")
        expectRun(try Run.receipt(["verify", "-"], stdin: Array(bytes.prefix(200))), status: 2, "truncated stdin")
    }

    @Test func dumpOfBase64EqualsDumpOfBinary() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = try Fixtures.bytes("certs/AppleIncRootCertificate.cer")
        let file = directory.file(
            "root.pem",
            text: "-----BEGIN CERTIFICATE-----\n"
                + Data(bytes).base64EncodedString(options: .lineLength64Characters) + "\n-----END CERTIFICATE-----\n")
        let text = try Run.receipt(["dump", file.path])
        let binary = try Run.receipt(["dump", Paths.certificate("AppleIncRootCertificate.cer")])
        expectRun(text, status: 0)
        #expect(text.stdout == binary.stdout)
    }
}
