import Foundation
@testable import ReceiptServer
@testable import receipt_server
import Testing

/// Messages that say what to fix (issue 26): configuration-file errors name the file, the key and
/// the type the key takes (one string is taken for a list of one); flags with fixed values list
/// them; a file that cannot be read says why; log times are UTC; `/metrics` counts an authentic
/// notification that is refused under its verified type.
@Suite struct ConfigurationMessageTests {
    /// `text` in a new temporary file.
    static func write(_ text: String, name: String = "config.json") throws -> String {
        let path = try DatabasePathTests.folder() + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The message of the error reading `text` as a configuration file (and the file's path).
    static func message(_ text: String) throws -> (path: String, message: String) {
        let path = try Self.write(text)
        do {
            _ = try ServerConfiguration(configFile: path)
            return (path, "")
        } catch {
            return (path, error.description)
        }
    }

    @Test func fileErrorsNameTheFileTheKeyAndTheType() throws {
        let wrong = try Self.write(#"{"port": "8080"}"#)
        #expect(throws: ConfigurationError.invalidType(file: wrong, key: "port", expected: "an integer", found: "a string")) {
            try ServerConfiguration(configFile: wrong)
        }
        for (text, expected) in [
            (#"{"port": "8080"}"#, "'port' must be an integer, not a string"),
            (#"{"port": 80.5}"#, "'port' must be an integer, not a number (80.5)"),
            (#"{"root": ["a.der", 3]}"#, "'root' must be a list of strings (or one string), not a list holding a number (3)"),
            (#"{"app": {"com.example.a": "secret"}}"#, "'app' must be a list of strings (or one string), not an object"),
            (#"{"allow-xcode": "yes"}"#, "'allow-xcode' must be true or false, not a string"),
            (#"{"key-rate": true}"#, "'key-rate' must be a number, not true"),
            (#"{"host": 127}"#, "'host' must be a string, not a number (127)"),
            (#"{"prot": 8080}"#, "unknown configuration key 'prot' (did you mean 'port'?)"),
            (#"{"max_body": 5}"#, "unknown configuration key 'max_body' (did you mean 'max-body'?)"),
            (#"{"colour": "red"}"#, "unknown configuration key 'colour'"),
            (#"[8080]"#, #"expected a JSON object of options, such as {"port": 8080}, not a list"#),
            ("{\n  \"port\": 8080,\n  \"host\" \"::1\"\n}", "not JSON (invalid value around character"),
            (#"{"port": 80"#, "not JSON (unexpected end of file"),
            (#"{"inspector": "no"}"#, "invalid inspector 'no': expected on or off"),
            (#"{"log-level": "loud"}"#, "invalid log-level 'loud': expected trace, debug, info, notice, warning, error or critical"),
        ] {
            let (path, message) = try Self.message(text)
            #expect(message.hasPrefix(path + ": ") && message.contains(expected), "\(text): \(message)")
        }
        #expect(try Self.message(#"{"colour": "red"}"#).message.hasSuffix("'colour'"))
        #expect(try Self.message("{\n  \"port\": 8080,\n  \"host\" \"::1\"\n}").message.contains("line 3"))
        // A string's value never reaches the message (it may be a secret or a password).
        #expect(!(try Self.message(#"{"port": "postgres://u:hunter2@db/receipts"}"#).message.contains("hunter2")))
    }

    /// One string where a list is expected is a list of one; `null` is as if the key were absent;
    /// a whole number is a number.
    @Test func oneStringIsAListOfOne() throws {
        let path = try Self.write(
            #"{"root": "ca.der", "app": "com.example.a=secret", "root-g3": "g3.der", "legacy-intermediate": "i.der", "#
                + #""key-rate": 3, "metrics-port": null, "log-level": "debug"}"#)
        let configuration = try ServerConfiguration(configFile: path)
        #expect(configuration.roots == ["ca.der"] && configuration.apps == ["com.example.a=secret"])
        #expect(configuration.rootsG3 == ["g3.der"] && configuration.legacyIntermediates == ["i.der"])
        #expect(configuration.keyRate == 3 && configuration.metricsPort == nil && configuration.logLevel == "debug")
        let lists = try ServerConfiguration(configFile: try Self.write(#"{"root": ["a.der", "b.der"], "app": []}"#))
        #expect(lists.roots == ["a.der", "b.der"] && lists.apps.isEmpty)
    }

    /// `cannot read X` says why: no such file, is a directory, permission denied (not testable as
    /// root, who reads anything) — for `--config`, `--root` and `--secrets-key-file` alike.
    @Test func unreadableFilesSayWhy() async throws {
        let folder = try DatabasePathTests.folder()
        let missing = folder + "/missing.json"
        #expect(throws: ConfigurationError.unreadableFile(missing, reason: "no such file")) { try ServerConfiguration(configFile: missing) }
        #expect(throws: ConfigurationError.unreadableFile(folder, reason: "is a directory")) { try ServerConfiguration(configFile: folder) }
        #expect(throws: ConfigurationError.unreadableFile(folder + "/missing.der", reason: "no such file")) {
            try StartupOptions.root(folder + "/missing.der")
        }
        #expect(ConfigurationError.unreadableFile(missing).description == "cannot read \(missing): no such file")
        if geteuid() != 0 {
            let locked = try Self.write("{}")
            try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: locked)
            #expect(throws: ConfigurationError.unreadableFile(locked, reason: "permission denied")) { try ServerConfiguration(configFile: locked) }
        }
        #expect(FileContents.reason(EACCES) == "permission denied")

        // The executable, before anything is created.
        let database = "sqlite:" + folder + "/never.sqlite"
        for (arguments, expected) in [
            (["serve", "--config", missing], "cannot read \(missing): no such file"),
            (["serve", "--config", folder], "cannot read \(folder): is a directory"),
            (["serve", "--database", database, "--root", folder + "/missing.der"], "cannot read \(folder)/missing.der: no such file"),
            (
                ["serve", "--database", database, "--port", "0", "--secrets-key-file", folder + "/missing.key"],
                "cannot read \(folder)/missing.key: no such file"
            ),
        ] {
            let (status, errors) = try await LiveServer.runForErrors(arguments)
            #expect(status != 0 && errors.contains(expected), "\(arguments): \(errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/never.sqlite"))
    }

    /// `--log-level` and `--inspector` list what they accept; the server stops before the
    /// database is created.
    @Test func flagsListWhatTheyAccept() async throws {
        let folder = try DatabasePathTests.folder()
        let database = "sqlite:" + folder + "/never.sqlite"
        for (flags, expected) in [
            (["--log-level", "loud"], "invalid log-level 'loud': expected trace, debug, info, notice, warning, error or critical"),
            (["--inspector", "maybe"], "invalid inspector 'maybe': expected on or off"),
        ] {
            let (status, errors) = try await LiveServer.runForErrors(["serve", "--database", database, "--port", "0"] + flags)
            #expect(status != 0 && errors.contains(expected), "\(flags): \(errors)")
        }
        #expect(try DatabasePathTests.contents(folder).isEmpty)
    }

    /// Every log line's `time` is UTC with milliseconds, ending with `Z`, and is now.
    @Test func logTimesAreUTC() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let before = Date()
        let server = try await LiveServer.start(["--database", database.url])
        #expect(server.terminate() == 0)
        let lines = server.logText.split(separator: "\n")
        #expect(lines.count >= 3)
        let shape = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let time = try #require(object["time"] as? String)
            #expect(time.wholeMatch(of: shape) != nil, "\(time)")
            let date = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(time)
            #expect(abs(date.timeIntervalSince(before)) < 120, "\(time) is not now (\(before))")
        }
    }

    /// An authentic notification refused (another environment's endpoint, an app not served, a
    /// nested transaction of another app) is counted under its verified type; one whose
    /// signature fails stays `unknown`; a type Apple has not defined is `other`.
    @Test func refusedNotificationsCountUnderTheirType() async throws {
        let database = try await TestDatabase.make(.sqlite)
        typealias N = SyntheticNotifications
        let signed = NotificationEndpointTests.signed
        try await TestServer.withMetrics(N.configuration(database, apps: [Synthetic.bundleID])) { client, metrics in
            #expect(try await client.notify(token: NotificationEndpointTests.subscribed(), sandbox: true) == 403)
            #expect(try await client.notify(token: N.token("DID_RENEW", signedDate: signed, bundleId: "com.example.elsewhere")) == 403)
            var foreign = NotificationEndpointTests.transaction
            foreign.bundleId = "com.example.elsewhere"
            #expect(try await client.notify(token: N.token("REFUND", signedDate: signed, transaction: foreign)) == 403)
            #expect(try await client.notify(token: N.token("SOMETHING_NEW", signedDate: signed, bundleId: "com.example.elsewhere")) == 403)
            var parts = NotificationEndpointTests.subscribed().split(separator: ".").map(String.init)
            parts[2] = NotificationEndpointTests.changingOneCharacter(parts[2])
            #expect(try await client.notify(token: parts.joined(separator: ".")) == 401)
            let lines = try await metrics.lines()
            for expected in [
                #"receipt_server_notifications_total{endpoint="/sandbox/notifications/v2",type="SUBSCRIBED",result="refused"} 1"#,
                #"receipt_server_notifications_total{endpoint="/notifications/v2",type="DID_RENEW",result="refused"} 1"#,
                #"receipt_server_notifications_total{endpoint="/notifications/v2",type="REFUND",result="refused"} 1"#,
                #"receipt_server_notifications_total{endpoint="/notifications/v2",type="other",result="refused"} 1"#,
                #"receipt_server_notifications_total{endpoint="/notifications/v2",type="unknown",result="not_authentic"} 1"#,
            ] {
                #expect(lines.contains(expected), "missing: \(expected)")
            }
            #expect(!lines.contains { $0.contains(#"type="unknown",result="refused""#) })
        }
    }
}
