import AsyncHTTPClient
import Foundation
import NIOCore
import ReceiptServer
@testable import receipt_server
import Testing

/// The settings this issue adds: `--inspector on|off`, `--key-rate`, `--key-burst`, as flags and
/// as keys of the configuration file, with their ranges.
@Suite struct HostedConfigurationTests {
    @Test func fileKeysAreRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-hosted-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(#"{"inspector": "off", "key-rate": 2.5, "key-burst": 3}"#.utf8).write(to: URL(fileURLWithPath: path))
        let configuration = try ServerConfiguration(configFile: path)
        #expect(configuration.inspector == false && configuration.keyRate == 2.5 && configuration.keyBurst == 3)
        #expect(ServerConfiguration().inspectorEnabled && ServerConfiguration().keyRate == 100 && ServerConfiguration().keyBurst == 200)

        try Data(#"{"inspector": "no"}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ConfigurationError.inFile(path: path, .invalidValue("inspector", "no"))) { try ServerConfiguration(configFile: path) }
    }

    @Test func rangesAreChecked() throws {
        #expect(try ServerConfiguration.onOff("on") && !ServerConfiguration.onOff("off"))
        #expect(throws: ConfigurationError.invalidValue("inspector", "On")) { try ServerConfiguration.onOff("On") }
        var configuration = ServerConfiguration()
        configuration.keyRate = 0   // no limit
        configuration.keyBurst = 1
        try configuration.validate()
        for rate in [-1, Double.infinity, Double.nan] {
            var bad = ServerConfiguration()
            bad.keyRate = rate
            #expect(throws: ConfigurationError.self, "key-rate \(rate)") { try bad.validate() }
        }
        configuration.keyBurst = 0
        #expect(throws: ConfigurationError.invalidValue("key-burst", "0")) { try configuration.validate() }
    }

    /// The flags of the built executable: `--inspector off` leaves `GET /` and `POST /inspect`
    /// out and the rest in; a value other than on/off or an empty bucket stops start-up.
    @Test func flagsOfTheExecutable() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let server = try await LiveServer.start(LiveTests.serverArguments(database, ["--inspector", "off", "--key-rate", "0"]))
        let client = HTTPClient()
        func code(post: Bool, _ path: String) async throws -> UInt {
            var request = HTTPClientRequest(url: server.baseURL + path)
            if post {
                request.method = .POST
                request.body = .bytes(ByteBuffer(string: "x"))
            }
            return try await client.execute(request, timeout: .seconds(30)).status.code
        }
        #expect(try await code(post: false, "/") == 404)
        #expect(try await code(post: true, "/inspect") == 404)
        #expect(try await code(post: false, "/health") == 200)
        #expect(try await code(post: true, "/v1/receipt") == 200)
        try await client.shutdown()
        #expect(server.terminate() == 0)
        #expect(try await LiveServer.run(["serve", "--inspector", "maybe", "--database", database.url]).status != 0)
        #expect(try await LiveServer.run(["serve", "--key-burst", "0", "--database", database.url]).status != 0)
    }
}
