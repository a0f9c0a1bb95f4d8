import Metrics

extension Timer {
    /// Runs `body` and records how long it took.
    func measure<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let start = ContinuousClock.now
        defer { recordNanoseconds((ContinuousClock.now - start).wholeNanoseconds) }
        return try body()
    }

    func measure<T>(_ body: () async throws -> T) async rethrows -> T {
        let start = ContinuousClock.now
        defer { recordNanoseconds((ContinuousClock.now - start).wholeNanoseconds) }
        return try await body()
    }
}
