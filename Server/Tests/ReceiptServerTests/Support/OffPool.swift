import Foundation

/// Runs a blocking call (waiting for a child process: PostgreSQL's initdb and pg_ctl, Apple's
/// Python client) on a thread of its own, so that it does not hold one of the cooperative pool's
/// threads. That pool has as many threads as cores (two here): two blocked waits would stop every
/// other test's tasks, and their 5 s storage deadlines would pass while nothing ran.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
