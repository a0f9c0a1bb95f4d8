import Foundation
@testable import ReceiptService
@testable import receipt_server
import Testing

/// `--retention-message BUNDLE_ID=MESSAGE_UUID[:PRODUCT_ID]` (repeatable) and the config file's
/// `retention-message` list: what is accepted, and what stops start-up.
@Suite struct RetentionOptionTests {
    static let uuid = RetentionRequests.messageID

    @Test func valuesAreRead() throws {
        let messages = try RetentionMessages(options: [
            "com.example.a=\(Self.uuid.uppercased())", "com.example.b=\(Self.uuid):com.example.b.yearly_2",
        ])
        #expect(messages.message(for: "com.example.a") == RetentionMessage(messageIdentifier: Self.uuid))
        #expect(messages.message(for: "com.example.a")?.messageIdentifier == Self.uuid)
        #expect(messages.message(for: "com.example.b")?.alternateProductID == "com.example.b.yearly_2")
        #expect(messages.message(for: "com.example.c") == nil)
    }

    @Test(arguments: [
        "com.example.a", "=\(uuid)", "com.example.a=", "com.example.a=not-a-uuid", "com.example.a=\(uuid):",
        "com.example.a=\(uuid):com.example/yearly", "com.example.a=\(uuid):com.example.\"yearly\"", "com example=\(uuid)",
        "com.example.a=\(uuid):" + String(repeating: "p", count: 256),
    ])
    func malformedValuesStopStartUp(_ value: String) {
        #expect(throws: ConfigurationError.invalidValue("retention-message", value)) {
            try StartupOptions.retentionMessages([value])
        }
    }

    @Test func aSecondMessageForAnAppStopsStartUp() {
        let second = "com.example.a=\(RetentionRequests.otherMessageID)"
        #expect(throws: ConfigurationError.invalidValue("retention-message", second)) {
            try StartupOptions.retentionMessages(["com.example.a=\(Self.uuid)", second])
        }
    }

    @Test func configFileKey() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retention-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("list.json")
        try Data(#"{"retention-message": ["com.example.a=\#(Self.uuid)", "com.example.b=\#(Self.uuid):com.example.b.yearly"]}"#.utf8).write(to: list)
        #expect(
            try ServerConfiguration(configFile: list.path).retentionMessages == [
                "com.example.a=\(Self.uuid)", "com.example.b=\(Self.uuid):com.example.b.yearly",
            ])
        let one = directory.appendingPathComponent("one.json")
        try Data(#"{"retention-message": "com.example.a=\#(Self.uuid)"}"#.utf8).write(to: one)
        #expect(try ServerConfiguration(configFile: one.path).retentionMessages == ["com.example.a=\(Self.uuid)"])
        // A bad value stops the server before anything opens.
        var configuration = ServerConfiguration()
        configuration.retentionMessages = ["com.example.a=nope"]
        #expect(throws: ConfigurationError.invalidValue("retention-message", "com.example.a=nope")) {
            _ = try ServerApplication.Options(configuration)
        }
    }
}
