import AppReceipt
import Foundation
import HummingbirdTesting
import NIOCore
import PKCS7
@testable import ReceiptService
import ReceiptTestSupport
import Testing
import X509Certificates

/// `GET /` and `POST /inspect`, through the router: the report for receipts and tokens, valid,
/// refused and malformed, checked against the library's own verdicts; `--inspector off`.
@Suite struct InspectorTests {
    static let sampleRoot = Fixtures.repositoryRoot.appendingPathComponent("Examples/sample-root.der").path

    func withServer(
        inspector: Bool = true, roots: [String]? = [sampleRoot],
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var configuration = TestServer.configuration(try await TestDatabase.make(.sqlite), roots: roots)
        configuration.inspector = inspector
        try await TestServer.with(configuration, body)
    }

    static func inspect(_ client: any TestClientProtocol, _ bytes: [UInt8]) async throws -> [String: Any] {
        try await client.execute(
            uri: "/inspect", method: .post, headers: [.contentType: "application/octet-stream"],
            body: ByteBuffer(bytes: bytes)
        ) { response in
            #expect(response.status == .ok)
            return try JSONAnswer.object(response.body)
        }
    }

    /// The sample receipt under the sample root: valid, the verified path of three, its fields
    /// with dates in UTC and Los Angeles time, its five purchases, the tool's JSON, a curl line.
    @Test func sampleReceiptIsValid() async throws {
        let bytes = try Fixtures.repositoryFile("Examples/sample-receipt.der")
        let receipt = try AppReceipt(bytes)
        try await withServer { client in
            for input in [bytes, Array(Data(bytes).base64EncodedString(options: .lineLength64Characters).utf8)] {
                let report = try await Self.inspect(client, input)
                #expect(report["verdict"] as? String == "valid" && report["status"] as? Int == 0 && report["rule"] == nil)
                let chain = try #require(report["chain"] as? [[String: Any]])
                #expect(chain.map { $0["role"] as? String } == ["signer", "intermediate", "anchor"])
                let verified = try receipt.validate(
                    policy: .appStore(anchors: [TrustAnchor(derEncoded: Fixtures.repositoryFile("Examples/sample-root.der"))]))
                #expect(chain.map { $0["subject"] as? String } == verified.chain.map(\.subjectDescription))
                #expect(
                    chain.map { ($0["sha256"] as? String)?.replacingOccurrences(of: ":", with: "").lowercased() }
                        == verified.chain.map(\.fingerprint.description))
                #expect(chain.allSatisfy { $0["valid_at_validation_time"] as? Bool == true && $0["not_before"] is String })
                #expect(report["message"] as? String == "valid (appstore): " + verified.chain.map(\.subjectDescription).joined(separator: " <- "))
                let purchases = try #require(report["purchases"] as? [[String: Any]])
                #expect(purchases.count == 5)
                #expect(purchases.compactMap { $0["transaction_id"] as? String } == receipt.inAppPurchases.map(\.transactionIdentifier))
                let fields = try #require(report["fields"] as? [[String: String]])
                let created = try #require(fields.first { $0["name"] == "receipt_creation_date" })
                #expect(created["utc"] == "2024-03-01 12:00:00 Etc/GMT" && created["los_angeles"] == "2024-03-01 04:00:00 America/Los_Angeles")
                #expect(fields.contains { $0["name"] == "bundle_id" && $0["value"] == "com.example.receipts" })
                #expect(report["raw"] as? String == ReceiptJSON.response(receipt))
                #expect(report["receipt_data"] as? String == Data(bytes).base64EncodedString() && report["endpoint"] as? String == "/verifyReceipt")
            }
        }
    }

    /// A damaged copy: the library's refusal, in the `receipt` tool's words, its rule, and the
    /// certificate it names marked in the carried certificates.
    @Test func damagedReceiptNamesTheRuleAndCertificate() async throws {
        let damaged = try Self.damagedSample()
        let root = try TrustAnchor(derEncoded: Fixtures.repositoryFile("Examples/sample-root.der"))
        let receipt = try AppReceipt(damaged)
        let expected: ReceiptValidationError
        do {
            try receipt.validate(policy: .appStore(anchors: [root]))
            Issue.record("the damaged copy verified")
            return
        } catch {
            expected = error
        }
        try await withServer { client in
            let report = try await Self.inspect(client, damaged)
            #expect(report["verdict"] as? String == "not valid" && report["status"] as? Int == 21003)
            #expect(report["message"] as? String == RefusalHint.message(expected, time: .receiptCreation, switches: .receiptServer))
            #expect(report["rule"] as? String == "signatureInvalid")
            guard case .untrusted(.signatureInvalid(let subject)) = expected else {
                Issue.record("expected a signature failure, got \(expected)")
                return
            }
            #expect(report["failed_certificate"] as? String == subject.description)
            let chain = try #require(report["chain"] as? [[String: Any]])
            #expect(report["chain_verified"] as? Bool == false && chain.allSatisfy { $0["role"] as? String == "carried" })
            #expect(chain.filter { $0["failed"] as? Bool == true }.map { $0["subject"] as? String } == [subject.description])
            #expect((report["purchases"] as? [Any])?.count == 5, "the fields are still shown")
        }
    }

    /// The sample receipt with one byte of its signed content changed (a product id's letter).
    static func damagedSample() throws -> [UInt8] {
        var bytes = try Fixtures.repositoryFile("Examples/sample-receipt.der")
        let marker = Array("com.example.receipts.lifetime".utf8)
        let index = try #require(bytes.indices.first { bytes[$0...].starts(with: marker) })
        bytes[index + marker.count - 1] = UInt8(ascii: "X")
        return bytes
    }

    /// Not a receipt: malformed, saying it is no receipt at all; an Apple receipt under --root fails on
    /// the anchor; without --root it verifies under Apple's root.
    @Test(.enabled(if: Fixtures.shouldRun))
    func malformedAndFixtureReceipts() async throws {
        let production = try Fixtures.bytes("receipts/production.der")
        try await withServer { client in
            let report = try await Self.inspect(client, Array("not a receipt at all".utf8))
            #expect(report["verdict"] as? String == "malformed" && report["status"] as? Int == 21002)
            #expect((report["message"] as? String)?.hasPrefix("not a receipt: this is neither DER") == true)
            let foreign = try await Self.inspect(client, production)
            #expect(foreign["verdict"] as? String == "not valid" && foreign["rule"] != nil)
        }
        try await withServer(roots: []) { client in
            let report = try await Self.inspect(client, production)
            #expect(report["verdict"] as? String == "valid")
            #expect((report["chain"] as? [Any])?.count == 3)
        }
    }

    /// StoreKit 2 tokens: Apple's real TEST notification verifies (at its signedDate) with the
    /// payload's dates in both zones; an Xcode-signed token is refused with the tool's hint.
    @Test(.enabled(if: Fixtures.shouldRun))
    func signedDataTokens() async throws {
        let apple = try Fixtures.bytes("jws/apple-real-test-notification.jws")
        let xcode = try Fixtures.bytes("jws/xcode-signed-transaction.jws")
        try await withServer { client in
            let report = try await Self.inspect(client, apple)
            #expect(report["kind"] as? String == "jws" && report["verdict"] as? String == "valid")
            #expect(report["payload_kind"] as? String == "notification")
            #expect((report["chain"] as? [[String: Any]])?.map { $0["role"] as? String } == ["signer", "intermediate", "anchor"])
            let fields = try #require(report["fields"] as? [[String: String]])
            let signed = try #require(fields.first { $0["name"] == "signedDate" })
            #expect(signed["utc"]?.hasPrefix("2022-09-0") == true && signed["los_angeles"]?.hasSuffix("America/Los_Angeles") == true)
            #expect(report["receipt_data"] == nil)

            let refused = try await Self.inspect(client, xcode)
            #expect(refused["verdict"] as? String == "not valid")
            // Xcode's fractional milliseconds are dates too.
            let expires = try #require((refused["fields"] as? [[String: String]])?.first { $0["name"] == "expiresDate" })
            #expect(
                expires == [
                    "name": "expiresDate", "utc": "2023-11-19 01:45:36 Etc/GMT", "los_angeles": "2023-11-18 17:45:36 America/Los_Angeles",
                    "ms": "1700358336049",
                ])
            // The server's switch, not the command line's --policy.
            #expect(
                (refused["message"] as? String)?.hasSuffix(
                    "to accept Xcode test tokens start receipt-server with --allow-xcode "
                        + "and send them to the sandbox endpoint") == true)
            let malformed = try await Self.inspect(client, Array("eyJhbGciOi.broken".utf8))
            #expect(malformed["verdict"] as? String == "malformed" && malformed["rule"] as? String == "notCompactSerialization")
        }
    }

    /// The page is one document: no external script, style, font or image (the one address in it
    /// is the SVG namespace the timelines are drawn in), a policy that allows only its own inline
    /// script and style and requests to this server, and the elements the script fills.
    @Test func pageIsSelfContained() async throws {
        try await withServer { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "text/html; charset=utf-8")
                let html = String(buffer: response.body).replacingOccurrences(of: #""http://www.w3.org/2000/svg""#, with: "")
                for external in ["src=", "href=", "@import", "url(", "http://", "https://", "<link", "<iframe"] {
                    #expect(!html.contains(external), "\(external)")
                }
                for id in [
                    "drop", "file", "paste", "clear", "verdict", "summary", "rule", "failed-certificate", "zone-la", "subscriptions",
                    "chain", "fields", "nested", "purchases", "raw", "curl", "copy-curl",
                ] {
                    #expect(html.contains("id=\"\(id)\""), "\(id)")
                }
                let policy = try #require(response.headers[.contentSecurityPolicy])
                #expect(policy.hasPrefix("default-src 'none'") && policy.contains("script-src 'sha256-") && policy.contains("connect-src 'self'"))
            }
        }
    }

    /// `--inspector off` removes both routes.
    @Test func inspectorOffRemovesBothRoutes() async throws {
        try await withServer(inspector: false) { client in
            try await client.execute(uri: "/", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/inspect", method: .post, body: ByteBuffer(string: "x")) { #expect($0.status == .notFound) }
        }
    }
}
