import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ReceiptServer
@testable import receipt_server
import Testing

/// Runs the real application (storage, service, routes) in process for a test.
enum TestServer {
    /// Errors only: tests look at answers, not at logs.
    static let logger: Logger = {
        var logger = Logger(label: "receipt-server-test")
        logger.logLevel = .error
        return logger
    }()

    /// A configuration trusting the synthetic chain's root.
    static func configuration(
        _ database: TestDatabase, apps: [String] = [], allowXcode: Bool = false,
        cache: Int = 10_000, maxBody: Int = 1 << 20, roots: [String]? = nil
    ) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.database = database.url
        configuration.apps = apps
        configuration.roots = roots ?? [Synthetic.rootPath]
        configuration.allowXcode = allowXcode
        configuration.cache = cache
        configuration.maxBody = maxBody
        configuration.port = 0
        configuration.secretsKeyFile = TestSecrets.keyFile
        return configuration
    }

    /// Builds the application for `configuration` and runs `body` against it, over the router
    /// (`.router`) or a real socket (`.live`).
    static func with<T: Sendable>(
        _ configuration: ServerConfiguration, framework: TestingSetup = .router,
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> T
    ) async throws -> T {
        let application = try await ServerApplication.make(configuration, logger: logger)
        return try await application.test(framework, body)
    }
}

extension TestClientProtocol {
    /// POSTs `body` to a verifyReceipt endpoint and returns the parsed JSON answer (HTTP 200 required).
    func verify(_ body: Data, sandbox: Bool = false) async throws -> [String: Any] {
        try JSONAnswer.object(await verifyText(body, sandbox: sandbox))
    }

    /// The answer's bytes (HTTP 200 required).
    func verifyText(_ body: Data, sandbox: Bool = false) async throws -> Data {
        try await execute(
            uri: sandbox ? "/sandbox/verifyReceipt" : "/verifyReceipt", method: .post,
            headers: [.contentType: "application/json"], body: ByteBuffer(bytes: body)
        ) { response in
            guard response.status == .ok else { throw UnexpectedAnswer(description: "HTTP \(response.status.code)") }
            return Data(response.body.readableBytesView)
        }
    }

    /// Expects the `status` of the answer to `body`.
    func expectStatus(
        _ expected: Int, _ body: Data, sandbox: Bool = false, _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let status = try await status(body, sandbox: sandbox)
        #expect(status == expected, comment, sourceLocation: sourceLocation)
    }

    /// The `status` of a verifyReceipt answer.
    func status(_ body: Data, sandbox: Bool = false) async throws -> Int {
        try JSONAnswer.status(await verify(body, sandbox: sandbox))
    }
}

/// Reading answers.
enum JSONAnswer {
    static func object(_ buffer: ByteBuffer) throws -> [String: Any] {
        try object(Data(buffer.readableBytesView))
    }

    static func object(_ data: Data) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw UnexpectedAnswer(description: "not a JSON object: \(String(decoding: data, as: UTF8.self))")
        }
        return object
    }

    static func status(_ object: [String: Any]) throws -> Int {
        guard let status = object["status"] as? Int else { throw UnexpectedAnswer(description: "no status in \(object)") }
        return status
    }

    /// `latest_receipt_info`'s transaction ids, in order.
    static func latestTransactionIDs(_ object: [String: Any]) -> [String]? {
        (object["latest_receipt_info"] as? [[String: Any]])?.compactMap { $0["transaction_id"] as? String }
    }
}

struct UnexpectedAnswer: Error, CustomStringConvertible {
    let description: String
}
