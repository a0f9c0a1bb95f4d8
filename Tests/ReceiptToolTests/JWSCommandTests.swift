import Foundation
import ReceiptTestSupport
import Testing
import TestHelpers

/// `receipt verify|decode` on StoreKit 2 signed data (DESIGN §11): exit 0 valid or decoded,
/// 1 not valid, 2 malformed, 64 usage; `--json` prints the payload as signed.
@Suite(.enabled(if: Fixtures.shouldRun))
struct JWSCommandTests {
    static func token(_ name: String) -> String { Fixtures.url("jws/\(name).jws").path }

    @Test func appleNotificationVerifiesWithNoOptions() throws {
        let result = try Run.receipt(["verify", Self.token("apple-real-test-notification")])
        expectRun(result, status: 0)
        #expect(result.output.contains("valid (appstore)"))
        #expect(result.output.contains("Apple Root CA - G3"))
        #expect(result.output.contains("payload: notification"))
        #expect(result.output.contains("5e09dcfc-205e-4ea1-9883-96676f394992"))
    }

    @Test func jsonPrintsThePayloadAsSigned() throws {
        let path = Self.token("apple-real-test-notification")
        let result = try Run.receipt(["verify", path, "--json"])
        expectRun(result, status: 0)
        let text = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        var payload = String(text.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        let signed = try #require(Data(base64Encoded: payload))
        #expect(result.output == String(decoding: signed, as: UTF8.self) + "\n")
    }

    @Test func validationTimeDefaultsToTheSignedDate() throws {
        let path = Self.token("apple-real-test-notification")
        expectRun(try Run.receipt(["verify", path, "--at", "now"]), status: 1, errorContains: ["expired"])
        expectRun(try Run.receipt(["verify", path, "--at", "2022-09-02T12:00:00Z"]), status: 0)
        expectRun(try Run.receipt(["verify", path, "--at", "2020-01-01T00:00:00Z"]), status: 1, errorContains: ["not yet valid"])
        expectRun(try Run.receipt(["verify", path, "--at", "yesterday"]), status: 64)
    }

    @Test(arguments: ["xcode-signed-transaction", "xcode-signed-renewal-info", "xcode-signed-app-transaction"])
    func xcodeTokensNeedTheXcodePolicy(_ name: String) throws {
        expectRun(
            try Run.receipt(["verify", Self.token(name)]), status: 1,
            errorContains: ["signed by Xcode's StoreKit Testing certificate", "use --policy xcode"])
        expectRun(try Run.receipt(["verify", Self.token(name), "--policy", "xcode"]), status: 0)
    }

    @Test func appleTokenFailsTheXcodePolicy() throws {
        expectRun(
            try Run.receipt(["verify", Self.token("apple-real-test-notification"), "--policy", "xcode"]), status: 1,
            errorContains: ["signed by the App Store", "use --policy appstore"])
    }

    @Test func testCATokenVerifiesWithItsRootOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = Self.token("testca-test-notification")
        expectRun(try Run.receipt(["verify", path]), status: 1, errorContains: ["not trusted"])
        // The test CA's root is the token's last x5c entry.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var header = String(text.split(separator: ".")[0]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while header.count % 4 != 0 { header += "=" }
        let headerData = try #require(Data(base64Encoded: header))
        let object = try #require(try JSONSerialization.jsonObject(with: headerData) as? [String: Any])
        let x5c = try #require(object["x5c"] as? [String])
        let root = directory.file("testca-root.der", contents: [UInt8](try #require(Data(base64Encoded: x5c[2]))))
        expectRun(try Run.receipt(["verify", path, "--root", root.path]), status: 0)
        expectRun(try Run.receipt(["verify", path, "--root", root.path, "--bundle-id", "com.example"]), status: 0)
        expectRun(try Run.receipt(["verify", path, "--root", root.path, "--bundle-id", "com.other"]), status: 1, errorContains: ["bundle id"])
    }

    @Test func tamperedTokenIsNotValidAndDecodeStillWorks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let text = try String(contentsOfFile: Self.token("apple-real-test-notification"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var parts = text.split(separator: ".").map(String.init)
        parts[1] = TestJWS.base64URL(Array(#"{"notificationType":"TEST","signedDate":1662122492884,"data":{"bundleId":"com.evil"}}"#.utf8))
        let file = directory.file("tampered.jws", text: "\n  " + parts.joined(separator: ".") + "\n")
        expectRun(try Run.receipt(["verify", file.path]), status: 1, errorContains: ["signature invalid"])
        let decoded = try Run.receipt(["decode", file.path])
        expectRun(decoded, status: 0)
        #expect(decoded.output.contains("not verified"))
        #expect(decoded.output.contains("com.evil"))
    }

    @Test func malformedTokensExitTwo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let text = try String(contentsOfFile: Self.token("apple-real-test-notification"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let cases = [text + ".", "eyJhbGciOiJFUzI1NiJ9", text.replacingOccurrences(of: "-", with: "+")]
        for (index, token) in cases.enumerated() {
            let file = directory.file("bad\(index).jws", text: token)
            expectRun(try Run.receipt(["verify", file.path]), status: 2, errorContains: ["malformed signed data"])
            expectRun(try Run.receipt(["decode", file.path]), status: 2)
        }
    }

    @Test func receiptOnlyOptionsAreUsageErrors() throws {
        let path = Self.token("apple-real-test-notification")
        expectRun(try Run.receipt(["verify", path, "--app-version", "1"]), status: 64, errorContains: ["receipts"])
        expectRun(try Run.receipt(["verify", path, "--device-guid", "00"]), status: 64)
        expectRun(try Run.receipt(["verify", path, "--policy", "other"]), status: 64)
    }

    @Test func standardInputTakesATokenToo() throws {
        let bytes = try Fixtures.bytes("jws/apple-real-test-notification.jws")
        expectRun(try Run.receipt(["verify", "-"], stdin: bytes), status: 0)
    }
}
