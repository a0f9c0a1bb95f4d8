import Foundation

/// Milliseconds since 1970, the unit of every time the store keeps and the App Store Server API
/// speaks.
public enum EpochMilliseconds {
    /// Now, rounded down.
    public static func now() -> Int64 { of(Date()) }

    /// `date`, rounded down.
    public static func of(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}
