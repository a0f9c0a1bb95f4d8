/// The window of `GET /inApps/v1/metrics?from=YYYY-MM-DD&to=YYYY-MM-DD` (and of `receipt-server
/// report` and the dashboard): UTC days, both inclusive, at most `maxDays`.
public struct MetricsWindowRequest: Sendable, Hashable {
    /// The longest window: a leap year.
    public static let maxDays: Int64 = 366

    /// Days since 1970-01-01.
    public let firstDay: Int64
    public let lastDay: Int64

    /// Why a window is refused (answered 400 with Apple's error body shape).
    public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        case missing(String)
        case repeated(String)
        case notADate(String)
        case fromAfterTo
        case tooLong(Int64)

        public var description: String {
            switch self {
            case .missing(let name): "The \(name) parameter is missing."
            case .repeated(let name): "The \(name) parameter is given more than once."
            case .notADate(let name): "The \(name) parameter is not a UTC date YYYY-MM-DD that exists."
            case .fromAfterTo: "The from date is after the to date."
            case .tooLong(let days): "The window holds \(days) days; at most \(MetricsWindowRequest.maxDays) are answered."
            }
        }

        /// The error as the App Store Server API's surfaces answer it.
        var error: AppStoreAPIError { .badRequest(description) }
    }

    /// A window from `from` and `to` (`YYYY-MM-DD`).
    public init(from: String, to: String) throws(Refusal) {
        guard let first = UTCDay.parse(from) else { throw .notADate("from") }
        guard let last = UTCDay.parse(to) else { throw .notADate("to") }
        guard first <= last else { throw .fromAfterTo }
        guard last - first + 1 <= Self.maxDays else { throw .tooLong(last - first + 1) }
        firstDay = first
        lastDay = last
    }

    /// A window from a query's `from` and `to` parameters (each exactly once).
    public init(query: [(name: String, value: String)]) throws(Refusal) {
        func one(_ name: String) throws(Refusal) -> String {
            let values = query.filter { $0.name == name }
            guard let value = values.first else { throw .missing(name) }
            guard values.count == 1 else { throw .repeated(name) }
            return value.value
        }
        try self.init(from: try one("from"), to: try one("to"))
    }
}
