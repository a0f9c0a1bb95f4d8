import Foundation
import ReceiptTestSupport
import Testing
import TestHelpers

/// `receipt verify` tells a Retention Messaging real-time request apart (issue 40).
@Suite struct RealtimeRequestCommandTests {
    @Test func aRealtimeRequestIsSummarised() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let chain = TestJWSChain()
        let payload = """
            {"originalTransactionId":"99371282","appAppleId":531412,"productId":"com.example.product","userLocale":"en-US",\
            "requestIdentifier":"3db5c98d-8acf-4e29-831e-8e1f82f9f6e9","environment":"Production","signedDate":1709251200000}
            """
        let token = directory.file("realtime.jws", text: chain.token(payload: payload))
        let root = directory.file("root.der", contents: chain.rootCertificate)
        let result = try Run.receipt(["verify", token.path, "--root", root.path])
        expectRun(result, status: 0)
        for line in ["payload: realtimeRequest", "app apple id: 531412", "locale: en-US", "request id: 3db5c98d-8acf-4e29-831e-8e1f82f9f6e9"] {
            #expect(result.output.contains(line), "\(line)")
        }
        let json = try Run.receipt(["verify", token.path, "--root", root.path, "--json"])
        #expect(json.output == payload + "\n")
    }
}
