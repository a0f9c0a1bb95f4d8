import Foundation

/// When a failed delivery is tried again (`--webhook-retry-schedule`): the delay before each
/// retry, in order; after the last one fails the delivery is failed. Each delay is stretched or
/// shrunk by up to `jitter` at random, so that the retries of many events failed together
/// (a receiver back after an outage) do not arrive together.
public struct WebhookRetrySchedule: Sendable, Equatable {
    /// The delays, in milliseconds.
    public let delays: [Int64]

    /// The fraction each delay varies by.
    static let jitter = 0.2
    /// Most retries a schedule holds.
    static let maxRetries = 50
    /// The longest delay.
    static let maxDelay: Int64 = 7 * 86_400_000

    /// About RevenueCat's (5, 10, 20, 40, 80 minutes), then daily up to three days.
    public static let standard = WebhookRetrySchedule(
        validated: [300_000, 600_000, 1_200_000, 2_400_000, 4_800_000, 86_400_000, 86_400_000, 86_400_000])

    /// The text of the default, as the help shows it.
    public static let standardText = "5m,10m,20m,40m,80m,1d,1d,1d"

    private init(validated delays: [Int64]) {
        self.delays = delays
    }

    /// A schedule from comma-separated durations (`1s,2s,4s`; units `ms`, `s`, `m`, `h`, `d`),
    /// each more than 0 and at most 7 days, at most 50 of them.
    public init(_ text: String) throws(WebhookDurationError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= Self.maxRetries else { throw .tooMany(parts.count) }
        var delays: [Int64] = []
        for part in parts {
            let delay = try WebhookDuration.milliseconds(String(part))
            guard delay <= Self.maxDelay else { throw .outOfRange(String(part)) }
            delays.append(delay)
        }
        self.delays = delays
    }

    /// Attempts in all: the first and one per delay.
    public var attempts: Int { delays.count + 1 }

    /// When attempt `attempt` (1-based), failed at `now`, is tried again; nil after the last.
    /// `random` gives a number in 0..<1.
    public func nextAttempt(after attempt: Int, now: Int64, random: () -> Double) -> Int64? {
        guard attempt >= 1, attempt <= delays.count else { return nil }
        let delay = Double(delays[attempt - 1]) * (1 - Self.jitter + 2 * Self.jitter * random())
        return now + max(1, Int64(delay))
    }
}

/// Durations as the webhook options take them.
public enum WebhookDuration {
    /// `1500ms`, `10s`, `5m`, `2h`, `1d`, or a bare number of seconds: more than 0.
    public static func milliseconds(_ text: String) throws(WebhookDurationError) -> Int64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [(suffix: String, factor: Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000)]
        var number = Substring(trimmed)
        var factor: Int64 = 1000
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            number = trimmed.dropLast(unit.suffix.count)
            factor = unit.factor
            break
        }
        guard !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber), let value = Int64(number), value > 0,
            value <= Int64.max / factor
        else { throw .malformed(text) }
        return value * factor
    }
}

/// Why a duration or schedule is refused.
public enum WebhookDurationError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)
    case outOfRange(String)
    case tooMany(Int)

    public var description: String {
        switch self {
        case .malformed(let text): return "\"\(text)\" is not a duration (a positive number with ms, s, m, h or d)"
        case .outOfRange(let text): return "\"\(text)\" is out of range"
        case .tooMany(let count): return "a retry schedule holds at most \(WebhookRetrySchedule.maxRetries) delays, not \(count)"
        }
    }
}
