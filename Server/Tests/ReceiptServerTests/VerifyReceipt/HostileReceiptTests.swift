import Foundation
import HummingbirdTesting
import NIOCore
import ReceiptTestSupport
import Testing

/// The library's work budget and shape rules as the server answers them (issue "Hostile clients"):
/// each hostile receipt is 21003, and the inspector names the rule that refused it.
@Suite struct HostileReceiptTests {
    static let shapes: [(name: String, bytes: [UInt8], rule: String)] = [
        ("junk RSA-8192 certificates under 4 SignerInfos", HostileReceipts.junkCertificates(signerInfos: 4), "multipleSignerInfos"),
        ("junk RSA-8192 certificates", HostileReceipts.junkCertificates(signerInfos: 1), "rsaKeySizeNotAllowed"),
        ("a chain that verifies with RSA-4096 keys to a self-made root", HostileReceipts.selfMadeRSA4096Chain(), "notTrusted"),
    ]

    @Test func hostileReceiptsAreNotAuthentic() async throws {
        try await TestServer.with(TestServer.configuration(try await TestDatabase.make(.sqlite))) { client in
            for shape in Self.shapes {
                try await client.expectStatus(21003, Synthetic.body(shape.bytes), "\(shape.name)")
                let report = try await InspectorTests.inspect(client, shape.bytes)
                #expect(
                    report["verdict"] as? String == "not valid" && report["rule"] as? String == shape.rule, "\(shape.name): \(report["rule"] ?? "-")")
            }
        }
    }
}
