import Foundation
import GRDB

/// Holds the write lock of a test's SQLite database from outside the server (`BEGIN IMMEDIATE`
/// on a connection of its own, on a thread of its own), so that the server's next write waits
/// (its busy timeout is 10 s) until `release()`: a real storage stall, not a stub.
final class SQLiteWriteLock: @unchecked Sendable {
    private let held = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Returns once the lock is held.
    init(path: String) throws {
        let queue = try DatabaseQueue(path: path)
        let held = held, done = done, finished = finished
        Thread {
            try? queue.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                held.signal()
                done.wait()
                try db.execute(sql: "ROLLBACK")
            }
            try? queue.close()
            finished.signal()
        }.start()
        guard held.wait(timeout: .now() + 10) == .success else { throw UnexpectedAnswer(description: "could not lock \(path)") }
    }

    /// Lets the waiting writes through.
    func release() {
        done.signal()
        _ = finished.wait(timeout: .now() + 10)
    }
}
