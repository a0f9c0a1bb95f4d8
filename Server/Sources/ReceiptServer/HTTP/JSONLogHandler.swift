import Foundation
import Logging
import Synchronization

/// Structured logs: one JSON object per line on standard error (`time` in UTC such as
/// `2026-01-02T03:04:05.678Z`, `level`, `label`, `message`, then the metadata's keys). The
/// server never puts receipt bytes or shared secrets in metadata: receipts appear by a SHA-256
/// prefix at most.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    let label: String

    private static let output = Mutex<FileHandle>(FileHandle.standardError)

    /// `2026-01-02T03:04:05.678Z`: UTC, milliseconds, the zone spelled out.
    static let time = Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day()
        .time(includingFractionalSeconds: true).timeZone(separator: .omitted)

    public init(label: String, level: Logger.Level) {
        self.label = label
        logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) { fields[key] = "\(value)" }
        fields["time"] = Date().formatted(Self.time)
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = "\(event.message)"
        guard let line = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        Self.output.withLock { $0.write(line + Data("\n".utf8)) }
    }
}
