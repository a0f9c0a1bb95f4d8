import Foundation
import Testing

/// The bounds' flags of the built executable: each reaches the configuration (the
/// `receipt-server configured` log line names them), and values out of range stop start-up.
@Suite struct BoundsFlagsTests {
    @Test func flagsReachTheServer() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let server = try await LiveServer.start(
            LiveTests.serverArguments(
                database,
                [
                    "--cache-bytes", "1000000", "--max-verifications", "3", "--request-timeout", "7", "--max-connections", "50",
                    "--metrics-host", "127.0.0.1", "--metrics-port", "0", "--inspect-rate", "1", "--inspect-burst", "2",
                ]))
        let line = try #require(server.logText.split(separator: "\n").first { $0.contains(#""message":"receipt-server configured""#) })
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(fields["cache_bytes"] as? String == "1000000" && fields["max_verifications"] as? String == "3")
        #expect(fields["request_timeout"] as? String == "7" && fields["max_connections"] as? String == "50")
        #expect(fields["metrics"] as? String == "127.0.0.1:0" && fields["inspector"] as? String == "true")
        #expect(server.terminate() == 0)

        for flags in [
            ["--max-verifications", "0"], ["--request-timeout", "0"], ["--max-connections", "0"], ["--cache-bytes", "-1"],
            ["--metrics-port", "70000"], ["--inspect-burst", "0"], ["--inspect-rate", "-1"],
        ] {
            let (status, _) = try await LiveServer.run(["serve", "--database", database.url] + flags)
            #expect(status != 0, "\(flags)")
        }
    }
}
