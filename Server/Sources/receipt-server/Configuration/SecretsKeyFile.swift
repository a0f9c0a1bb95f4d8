#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import ReceiptService

/// Reading and creating secrets key files. A key file is the operator's, like an SSH private
/// key: one that group or others may read is refused, and a generated one is created 0600.
enum SecretsKeyFile {
    /// The key in the file at `path` (32 raw bytes or their base64).
    static func read(_ path: String) throws(ConfigurationError) -> SecretsKey {
        var info = stat()
        guard stat(path, &info) == 0, let data = FileManager.default.contents(atPath: path) else { throw .unreadableFile(path) }
        let mode = UInt16(truncatingIfNeeded: info.st_mode & 0o7777)
        guard mode & 0o077 == 0 else { throw .exposedSecretsKey(path: path, mode: mode) }
        do {
            return try SecretsKey(encoded: Array(data))
        } catch {
            throw .invalidSecretsKey(source: path, reason: error.description)
        }
    }

    /// Writes `key` (base64 and a newline) to a new file at `path`, mode 0600, atomically: the
    /// file appears whole or not at all. Returns false when `path` already exists (another
    /// process made it first; the caller reads that one).
    static func create(_ path: String, key: SecretsKey) throws(ConfigurationError) -> Bool {
        let temporary = path + ".\(UInt64.random(in: .min ... .max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw cannotCreate(path) }
        defer { unlink(temporary) }
        let bytes = Array((key.base64 + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced else { throw cannotCreate(path) }
        if link(temporary, path) == 0 { return true }
        if errno == EEXIST { return false }
        throw cannotCreate(path)
    }

    /// The error for a key file that could not be written, with the system's reason.
    static func cannotCreate(_ path: String) -> ConfigurationError {
        .invalidSecretsKey(source: path, reason: "cannot create the key file (\(String(cString: strerror(errno))))")
    }
}
