import Foundation
import Testing

/// The Get Retention Message answers read by Apple's own model: each 200 answer structures into
/// `RealtimeResponseBody` with the library's cattrs converter (`Server/Tests/apple-client/retention.py`),
/// holding exactly one of Apple's mutually exclusive options, with the configured values.
@Suite struct RetentionAppleClientTests {
    static let script = Fixtures.repositoryRoot.appendingPathComponent("Server/Tests/apple-client/retention.py")

    @Test(.enabled(if: AppleClient.shouldRun, AppleClient.skipReason))
    func answersStructureAsApplesModel() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let messages = [
            "\(Synthetic.bundleID)=\(RetentionRequests.messageID)",
            "com.example.other=\(RetentionRequests.otherMessageID):com.example.other.yearly",
        ]
        let bodies = try await TestServer.with(RetentionRequests.configuration(database, messages: messages)) { client in
            var bodies: [String] = []
            for bundleID in [Synthetic.bundleID, "com.example.other"] {
                let reply = try await client.retention(token: RetentionRequests.token(), bundleID: bundleID)
                #expect(reply.status == 200)
                bodies.append(reply.text)
            }
            return bodies
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retention-apple-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("answers.json")
        try JSONSerialization.data(withJSONObject: bodies).write(to: input)
        let (status, output) = try await Self.run(input, directory: directory)
        #expect(status == 0, "\(output)")
        let read = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]], "\(output)")
        #expect(read.count == 2 && read.allSatisfy { $0["options"] as? Int == 1 })
        #expect((read[0]["message"] as? [String: String]) == ["messageIdentifier": RetentionRequests.messageID])
        #expect(
            (read[1]["alternateProduct"] as? [String: String])
                == ["messageIdentifier": RetentionRequests.otherMessageID, "productId": "com.example.other.yearly"])
    }

    /// Runs retention.py on `input`; its exit status and standard output.
    static func run(_ input: URL, directory: URL) async throws -> (Int32, String) {
        let python = try #require(AppleClient.python, "\(AppleClient.pythonVariable) is not set")
        let outputURL = directory.appendingPathComponent("output.json")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path, input.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        try await offPool { process.waitUntilExit() }
        return (process.terminationStatus, String(decoding: (try? Data(contentsOf: outputURL)) ?? Data(), as: UTF8.self))
    }
}
