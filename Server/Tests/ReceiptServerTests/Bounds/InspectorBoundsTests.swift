import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReceiptServer
@testable import receipt_server
import ReceiptTestSupport
import Testing

/// `/inspect`: at most 500 purchases in a report (the rest counted), a token bucket per client
/// address, and the inspector off by default unless the server listens on loopback only.
@Suite struct InspectorBoundsTests {
    static func inspect(_ client: any TestClientProtocol, _ bytes: [UInt8]) async throws -> TestResponse {
        try await client.execute(
            uri: "/inspect", method: .post, headers: [.contentType: "application/octet-stream"],
            body: ByteBuffer(bytes: bytes)
        ) { $0 }
    }

    /// A receipt of 501 purchases: the report lists 500 and says one was omitted.
    @Test func purchasesAreCapped() async throws {
        let purchases = (0 ..< 501).map { Synthetic.consumable(String(7_000_000_000 + $0), purchased: 1_706_000_000 + Int64($0)) }
        let receipt = Synthetic.receipt(purchases)
        try await TestServer.with(TestServer.configuration(try await TestDatabase.make(.sqlite))) { client in
            let response = try await Self.inspect(client, receipt)
            #expect(response.status == .ok)
            let report = try JSONAnswer.object(response.body)
            #expect(report["verdict"] as? String == "valid")
            #expect((report["purchases"] as? [Any])?.count == 500)
            #expect(report["purchases_total"] as? Int == 501 && report["purchases_omitted"] as? Int == 1)
            // Work bounded by what is shown: no whole-receipt JSON once purchases are omitted.
            #expect(report["raw"] == nil && report["receipt_data"] as? String == Data(receipt).base64EncodedString())
            let small = try JSONAnswer.object(try await Self.inspect(client, StatusTests.consumable).body)
            #expect(small["purchases_total"] as? Int == 1 && small["purchases_omitted"] as? Int == 0)
            #expect(small["raw"] is String && small["receipt_data"] is String)
        }
    }

    /// A receipt past 256 KiB is not echoed back as base64 for the curl line.
    @Test func largeReceiptsAreNotEchoed() async throws {
        let receipt = SyntheticReceipts.receipt(inAppCount: 1_000)
        #expect(receipt.count > 256 * 1024)
        try await TestServer.with(TestServer.configuration(try await TestDatabase.make(.sqlite))) { client in
            let report = try JSONAnswer.object(try await Self.inspect(client, receipt).body)
            #expect(report["purchases_total"] as? Int == 1_000 && report["receipt_data"] == nil && report["raw"] == nil)
        }
    }

    /// Over a real socket: a burst of 3, then 429 with `Retry-After` for the same address.
    @Test func ratePerClientAddress() async throws {
        var configuration = TestServer.configuration(try await TestDatabase.make(.sqlite))
        configuration.inspectRate = 0.01   // one token back every 100 s: none during the test, however slow
        configuration.inspectBurst = 3
        try await TestServer.with(configuration, framework: .live) { client in
            var codes: [HTTPResponse.Status] = []
            for _ in 0 ..< 5 { codes.append(try await Self.inspect(client, Array("junk".utf8)).status) }
            #expect(codes == [.ok, .ok, .ok, .tooManyRequests, .tooManyRequests])
            let limited = try await Self.inspect(client, Array("junk".utf8))
            #expect(limited.status == .tooManyRequests && Int(limited.headers[.retryAfter] ?? "") ?? 0 >= 1)
            // Other routes are not limited by it.
            try await client.expectStatus(21002, Data(#"{"receipt-data": 1}"#.utf8))
        }
    }

    /// Off by default on any address but loopback; `--inspector on` turns it on anywhere.
    @Test func offByDefaultOffLoopback() async throws {
        for (host, expected) in [
            ("127.0.0.1", true), ("localhost", true), ("::1", true), ("127.1.2.3", true),
            ("0.0.0.0", false), ("::", false), ("192.168.1.10", false), ("example.com", false),
        ] {
            var configuration = ServerConfiguration()
            configuration.host = host
            #expect(configuration.inspectorEnabled == expected, "\(host)")
            configuration.inspector = true
            #expect(configuration.inspectorEnabled, "\(host) with --inspector on")
        }
        var configuration = TestServer.configuration(try await TestDatabase.make(.sqlite))
        configuration.host = "0.0.0.0"
        let off = try await TestServer.with(configuration) { client in
            [try await client.execute(uri: "/", method: .get) { $0.status }, try await Self.inspect(client, Array("junk".utf8)).status]
        }
        #expect(off == [.notFound, .notFound])
        configuration.inspector = true
        let on = try await TestServer.with(configuration) { client in try await client.execute(uri: "/", method: .get) { $0.status } }
        #expect(on == .ok)
    }
}
