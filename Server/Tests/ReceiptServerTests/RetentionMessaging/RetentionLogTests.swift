import Foundation
import Logging
import Prometheus
@testable import ReceiptService
@testable import receipt_server
import Testing

/// What the Get Retention Message endpoint logs: refusals through the refusal log (kind
/// `retention`, by reason), answers by app and request identifier; never the token nor the
/// customer's data (original transaction id, locale).
@Suite struct RetentionLogTests {
    @Test func logsNeitherTokenNorCustomer() async throws {
        let lines = RefusalLogTests.Lines()
        let logger = Logger(label: "test") { _ in RefusalLogTests.Handler(lines: lines) }
        let anchor = try StartupOptions.rootG3(SyntheticNotifications.rootPath)
        let service = RetentionService(
            registry: AppRegistry(), messages: try RetentionMessages(options: ["\(Synthetic.bundleID)=\(RetentionRequests.messageID)"]),
            anchors: [anchor], factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry()), logger: logger)
        let now = RetentionRequests.now
        let tokens = [
            RetentionRequests.token(), RetentionRequests.token(signedDate: now - 600_000), RetentionRequests.token(environment: "Sandbox"),
        ]
        var statuses: [Int] = []
        for token in tokens {
            statuses.append(await service.answer(body: SyntheticNotifications.body(token), bundleID: Synthetic.bundleID, at: .production).httpStatus)
        }
        statuses.append(await service.answer(body: Data("{}".utf8), bundleID: "com.example.other", at: .production).httpStatus)
        #expect(statuses == [200, 401, 403, 400])
        let all = lines.all
        #expect(all.count == 4)
        let refused = all.filter { $0.0 == "retention request" }
        #expect(refused.count == 3 && refused.allSatisfy { $0.1["kind"] == "retention" && $0.1["reason"] != nil })
        #expect(all.first { $0.0 == "retention message" }?.1["request_identifier"] != nil)
        let text = all.map { "\($0.0) \($0.1)" }.joined(separator: "\n")
        for secret in tokens + tokens.flatMap({ $0.split(separator: ".").map(String.init) }) {
            #expect(!text.contains(secret))
        }
        #expect(!text.contains(RetentionRequests.originalTransactionId) && !text.contains(RetentionRequests.userLocale))
    }
}
