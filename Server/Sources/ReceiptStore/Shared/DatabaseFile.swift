import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The modes of the SQLite database's files. The database holds receipts, hashed credentials and
/// sealed keys: only its owner may read it. A missing database is created 0600 before SQLite opens
/// it, and SQLite creates `-wal` and `-shm` with the main file's mode (os_unix.c, `robust_open`
/// with the mode `findCreateFileMode` takes from the database), so they come out 0600 too, whatever
/// the umask. An existing file that group or others may read or write is refused, never
/// silently fixed: the operator learns that the data was exposed.
enum DatabaseFile {
    /// The files SQLite keeps for the database at `path`.
    static func paths(_ path: String) -> [String] { [path, path + "-wal", path + "-shm"] }

    /// Creates `path` empty with mode 0600 when it does not exist and `create` is set (else a
    /// missing file is `StoreError.missingDatabase`), then refuses any of its files with a group
    /// or other permission bit. Returns whether the file was created now.
    @discardableResult
    static func prepare(_ path: String, create: Bool = true) throws(StoreError) -> Bool {
        var created = false
        if create {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 {
                close(fd)
                created = true
            }
        } else if !exists(path) {
            throw .missingDatabase(path: absolute(path))
        }
        for file in paths(path) { try checkPrivate(file) }
        return created
    }

    /// Whether anything (a file, or a dangling symbolic link's target aside) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// `path` made absolute against the working directory, `.` and `..` resolved.
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// Throws `StoreError.exposedFile` when `path` exists with any group or other permission bit.
    static func checkPrivate(_ path: String) throws(StoreError) {
        guard let mode = mode(of: path) else { return }
        if mode & 0o077 != 0 { throw .exposedFile(path: path, mode: mode) }
    }

    /// The permission bits of `path`, nil when it does not exist.
    static func mode(of path: String) -> UInt16? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt16(truncatingIfNeeded: info.st_mode & 0o7777)
    }
}
