import Foundation
import Logging
import Metrics
import ReceiptService
import ReceiptStore

/// `receipt-server ingest FILE...`: replays notifications a server missed (Apple's
/// Get Notification History gives their `signedPayload`s), each verified and stored as the
/// endpoint of its own `data.environment` would, against the database's app registry.
public enum NotificationIngest {
    /// What `ingest` prints.
    public struct Summary: Sendable, Encodable, Equatable {
        /// Files named.
        public var files = 0
        /// Notifications read (entries of the files).
        public var notifications = 0
        /// Durable in the database (some may have been there already: stored once by notificationUUID).
        public var stored = 0
        /// Entries not stored (and files not read).
        public var failed = 0
        /// Why, each.
        public var failures: [Failure] = []
    }

    /// One entry that was not stored.
    public struct Failure: Sendable, Encodable, Equatable {
        /// The file as named on the command line.
        public var file: String
        /// 1-based line of the entry; absent for a file holding one JSON object.
        public var line: Int?
        /// The HTTP status the endpoint would have answered (absent for a file that cannot be read).
        public var status: Int?
        /// One line: what the endpoint would have answered, or why the file was not read.
        public var reason: String
    }

    /// Reads every file and stores its notifications through the store at
    /// `configuration.database`, with `configuration.rootsG3` as anchors when given. A SQLite
    /// database is opened holding its server lock (`StoreError.databaseInUse` while a server
    /// serves it): that server keeps reads in memory between its own commits and would not see
    /// these.
    public static func run(files: [String], configuration: ServerConfiguration, logger: Logger) async throws -> Summary {
        let anchors = try configuration.rootsG3.isEmpty ? nil : configuration.rootsG3.map(StartupOptions.rootG3)
        let options = OpenOptions(createsFile: false, locksFile: true)
        return try await ConfiguredStore.with(configuration, logger: logger, options: options) { store, _ in
            let registry = AppRegistry(try await store.apps())
            let service = NotificationService(
                store: store, registry: registry, anchors: anchors,
                metrics: NotificationMetrics(factory: NOOPMetricsHandler.instance), logger: logger)
            var summary = Summary()
            for file in files {
                summary.files += 1
                guard let data = FileManager.default.contents(atPath: file) else {
                    summary.record(Failure(file: file, line: nil, status: nil, reason: "cannot read the file"))
                    continue
                }
                for entry in entries(in: data) {
                    summary.notifications += 1
                    guard let token = entry.token else {
                        summary.record(
                            Failure(file: file, line: entry.line, status: 400, reason: #"not a JSON object with a "signedPayload" string"#))
                        continue
                    }
                    let answer = await service.ingest(token)
                    if answer.result == .stored {
                        summary.stored += 1
                    } else {
                        summary.record(
                            Failure(file: file, line: entry.line, status: answer.httpStatus, reason: answer.reason ?? answer.result.rawValue))
                    }
                }
            }
            return summary
        }
    }

    /// One notification of a file: its line (nil for a whole-file JSON object) and its token
    /// (nil when a JSON line holds no `signedPayload` string).
    struct Entry: Equatable {
        let line: Int?
        let token: String?
    }

    /// A file is one `{"signedPayload": …}` JSON object (pretty-printed or not), or lines each
    /// holding such an object or a bare JWS; blank lines are skipped.
    static func entries(in data: Data) -> [Entry] {
        let text = String(decoding: data, as: UTF8.self)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{"), let token = NotificationService.signedPayload(in: Data(trimmed.utf8)) {
            return [Entry(line: nil, token: token)]
        }
        var entries: [Entry] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let entry = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if entry.isEmpty { continue }
            let token = entry.hasPrefix("{") ? NotificationService.signedPayload(in: Data(entry.utf8)) : entry
            entries.append(Entry(line: index + 1, token: token))
        }
        return entries
    }
}

extension NotificationIngest.Summary {
    mutating func record(_ failure: NotificationIngest.Failure) {
        failed += 1
        failures.append(failure)
    }

    /// The summary as one JSON object.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
