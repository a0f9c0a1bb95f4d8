import Foundation
import HummingbirdTesting
import NIOCore
import ReceiptServer
@testable import receipt_server
import Testing

/// `--max-verifications`: past the bound every route that verifies sheds the request at once
/// instead of queueing it. Measured on a real server (a socket) with a limit of 1: one
/// `verifyReceipt` request holds the only slot, waiting for a database whose write lock the test
/// holds; meanwhile each route answers "busy, retry"; once the lock is released the held
/// request is answered 0 and the slots are free again.
@Suite struct SheddingTests {
    @Test func everyRouteShedsPastTheLimit() async throws {
        let setup = try await HostedSetup.make(.sqlite)
        var configuration = SyntheticNotifications.configuration(setup.database)
        configuration.maxVerifications = 1
        configuration.inspector = true
        try await TestServer.withMetrics(configuration, framework: .ahc()) { client, metrics in
            let held = Synthetic.receipt([Synthetic.consumable("5600000001", purchased: 1_706_000_000)])
            let lock = try SQLiteWriteLock(path: setup.database.sqlitePath!)
            let holder = Task { try await client.status(Synthetic.body(held)) }

            // A request that needs no storage: 21002 while a slot is free, 21100 once the held
            // request has taken the only one.
            var shed: TestResponse?
            for _ in 0 ..< 200 where shed == nil {
                let response = try await client.execute(
                    uri: "/verifyReceipt", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"receipt-data": 1}"#)
                ) { $0 }
                let answer = try JSONAnswer.object(response.body)
                if answer["status"] as? Int == 21100 { shed = response } else { try await Task.sleep(for: .milliseconds(20)) }
            }
            let verifyShed = try #require(shed, "the held request never took the slot")
            let verifyAnswer = try JSONAnswer.object(verifyShed.body)
            #expect(verifyShed.status == .ok && verifyAnswer["is-retryable"] as? Bool == true && verifyAnswer.count == 2)
            #expect(verifyShed.headers[.retryAfter] == "1")

            let hosted = try await client.hosted(HostedSetup.form(apiKey: setup.key, token: setup.token, receipt: StatusTests.consumable))
            #expect(hosted.code == 200 && hosted.status == 21100 && hosted.object["is-retryable"] as? Bool == true)
            #expect(hosted.retryAfter == "1")

            let notification = try await client.execute(
                uri: "/notifications/v2", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"signedPayload":"a.b.c"}"#)
            ) { $0 }
            #expect(notification.status == .serviceUnavailable && notification.headers[.retryAfter] == "1")

            let inspect = try await client.execute(
                uri: "/inspect", method: .post, headers: [.contentType: "application/octet-stream"],
                body: ByteBuffer(bytes: StatusTests.consumable)
            ) { $0 }
            #expect(inspect.status == .serviceUnavailable && inspect.headers[.retryAfter] == "1")

            lock.release()
            let heldStatus = try await holder.value
            #expect(heldStatus == 0, "the held request is answered once storage moves")
            try await client.expectStatus(21002, Data(#"{"receipt-data": 1}"#.utf8))
            let inspected = try await client.execute(
                uri: "/inspect", method: .post, headers: [.contentType: "application/octet-stream"],
                body: ByteBuffer(bytes: StatusTests.consumable)
            ) { $0.status }
            #expect(inspected == .ok)

            let lines = try await metrics.lines()
            for endpoint in ["/notifications/v2", "/v1/receipt", "/inspect"] {
                #expect(lines.contains(#"receipt_server_shed_total{endpoint="\#(endpoint)"} 1"#), "\(endpoint)")
            }
            #expect(lines.contains { $0.hasPrefix(#"receipt_server_shed_total{endpoint="/verifyReceipt"} "#) })
            #expect(lines.contains(#"receipt_server_notifications_total{endpoint="/notifications/v2",type="unknown",result="busy"} 1"#))
        }
    }

    @Test func theBoundIsChecked() throws {
        var configuration = ServerConfiguration()
        #expect(configuration.maxVerifications == 64)
        configuration.maxVerifications = 0
        #expect(throws: ConfigurationError.invalidValue("max-verifications", "0")) { try configuration.validate() }
    }
}
