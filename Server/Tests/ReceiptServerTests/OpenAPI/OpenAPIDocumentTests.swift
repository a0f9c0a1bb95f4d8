import Foundation
import HummingbirdTesting
import NIOCore
import ReceiptService
import Testing
import Yams

@testable import ReceiptServer
@testable import receipt_server

/// `Server/openapi.yaml` against the server: every route the application registers is an
/// operation of the document and every operation is a route, and `GET /openapi.yaml` and
/// `GET /openapi.json` serve exactly that file.
@Suite struct OpenAPIDocumentTests {
    /// The document in the repository (the one `Sources/ReceiptServer/OpenAPI/openapi.yaml` links to).
    static let file = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("openapi.yaml")

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// "METHOD /path" of every operation in the document.
    static func documentedOperations() throws -> Set<String> {
        let document = try #require(try Yams.load(yaml: String(contentsOf: file, encoding: .utf8)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        var operations: Set<String> = []
        for (path, item) in paths {
            let item = try #require(item as? [String: Any], "\(path)")
            for method in methods where item[method] != nil { operations.insert("\(method.uppercased()) \(path)") }
        }
        return operations
    }

    @Test func everyRouteIsDescribedAndEveryOperationIsARoute() async throws {
        let database = try await TestDatabase.make(.sqlite)
        var configuration = TestServer.configuration(database)
        configuration.inspector = true
        var registered: [(method: String, path: String)] = []
        _ = try await ServerApplication.make(configuration, logger: TestServer.logger, onRoutes: { registered = $0 })
        var routes = Set(registered.map { "\($0.method) \($0.path)" })
        // VerifyMethodMiddleware answers every other method on the verifyReceipt paths; GET stands for them.
        for endpoint in VerifyEndpoint.allCases { routes.insert("GET \(endpoint.path)") }
        // The /metrics listener's one route (its own server in the document).
        routes.insert("GET \(MetricsListener.path)")
        #expect(registered.count >= 25, "the application registered \(registered.count) routes")

        let documented = try Self.documentedOperations()
        #expect(routes.subtracting(documented).isEmpty, "routes the document does not describe: \(routes.subtracting(documented).sorted())")
        #expect(documented.subtracting(routes).isEmpty, "operations that are no route: \(documented.subtracting(routes).sorted())")
    }

    @Test func servedDocumentsAreTheFile() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let file = try Data(contentsOf: Self.file)
        let expected = try Self.canonical(try #require(try Yams.load(yaml: String(decoding: file, as: UTF8.self))))
        try await TestServer.with(TestServer.configuration(database)) { client in
            try await client.execute(uri: "/openapi.yaml", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/yaml")
                #expect(Data(response.body.readableBytesView) == file)
            }
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                let served = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
                #expect(try Self.canonical(served) == expected)
                // The YAML's key order is kept: `openapi` first, as in the file.
                #expect(String(buffer: response.body).hasPrefix(#"{"openapi":"#))
            }
        }
    }

    /// `value` as sorted-key JSON text, so that two parsers' results compare.
    static func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
    }
}
