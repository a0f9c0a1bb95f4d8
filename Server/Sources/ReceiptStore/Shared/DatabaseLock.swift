import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One server per SQLite file: the server holds an exclusive `flock(2)` on `PATH.lock` (mode
/// 0600, holding the server's process id) for as long as it runs. A second server on the same
/// file is refused at start (`StoreError.databaseInUse`) instead of sharing the file with a
/// server that keeps its histories and customers in memory between commits (`ReadCaches`).
///
/// The kernel drops the lock when the process ends, however it ends (a crash or SIGKILL
/// included), so a stale lock file never blocks the next start. A clean stop removes the file
/// while still holding the lock; a process that opened the old file just before it was removed
/// finds, once it holds the lock, that the path names another file (or none) and starts over.
/// Commands (`stats`, `app`, `apikey`, `ingest`) take no lock: SQLite's own locking lets them
/// write beside a running server.
///
/// A separate file rather than the database itself: SQLite's POSIX locks are released when any
/// descriptor of the file closes, and `flock` and `fcntl` locks interact on some systems.
final class DatabaseLock: Sendable {
    /// The lock file: the database's path plus `.lock`.
    let path: String
    private let descriptor: Mutex<Int32?>

    /// `PATH.lock` for the database at `databasePath`.
    static func file(forDatabase databasePath: String) -> String { databasePath + ".lock" }

    /// Takes the lock of the database at `databasePath` without waiting; throws
    /// `StoreError.databaseInUse` when another process holds it.
    init(database databasePath: String) throws(StoreError) {
        let path = Self.file(forDatabase: databasePath)
        self.path = path
        for _ in 0 ..< 10 {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw .lockFailed(lockFile: DatabaseFile.absolute(path), reason: Self.reason(errno)) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                close(fd)
                if code == EWOULDBLOCK {
                    throw .databaseInUse(
                        path: DatabaseFile.absolute(databasePath), lockFile: DatabaseFile.absolute(path),
                        holder: Self.holder(path))
                }
                throw .lockFailed(lockFile: DatabaseFile.absolute(path), reason: Self.reason(code))
            }
            // Locked; but the file may have been removed (and maybe made anew) by the server that
            // held it: then this lock guards nothing and the path is tried again.
            var held = stat(), named = stat()
            guard fstat(fd, &held) == 0, stat(path, &named) == 0, held.st_dev == named.st_dev, held.st_ino == named.st_ino else {
                close(fd)
                continue
            }
            let pid = Array("\(getpid())\n".utf8)
            if ftruncate(fd, 0) == 0 { _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
            descriptor = Mutex(fd)
            return
        }
        throw .lockFailed(lockFile: DatabaseFile.absolute(path), reason: "the file kept being replaced")
    }

    /// Removes the lock file and lets the lock go (once; later calls do nothing).
    func release() {
        descriptor.withLock { fd in
            guard let held = fd else { return }
            unlink(path)
            close(held)
            fd = nil
        }
    }

    deinit {
        // A store that was never run (start-up failed after the lock was taken): the descriptor
        // is closed, which drops the lock; the file stays for the next start to reuse.
        descriptor.withLock { fd in
            if let held = fd { close(held) }
        }
    }

    /// The process id a lock file holds, if it holds one.
    static func holder(_ path: String) -> Int32? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return Int32(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The system's message for `code`, in lower case.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file or directory"
        case EACCES, EPERM: return "permission denied"
        case EROFS: return "read-only file system"
        default:
            let text = String(cString: strerror(code))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }
}
