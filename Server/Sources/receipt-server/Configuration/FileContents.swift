import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a file named by an option, with the reason when it cannot be read.
enum FileContents {
    /// The file's bytes, or `ConfigurationError.unreadableFile` with the reason (`no such file`,
    /// `permission denied`, `is a directory`, …).
    static func read(_ path: String) throws(ConfigurationError) -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadableFile(path, reason: reason(errno)) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { throw .unreadableFile(path, reason: reason(EISDIR)) }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw .unreadableFile(path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Why `path` cannot be read now (for an error made without the reason).
    static func failure(_ path: String) -> String {
        do {
            _ = try read(path)
            return "unreadable"
        } catch .unreadableFile(_, let reason?) {
            return reason
        } catch {
            return "\(error)"
        }
    }

    /// The reason for `errno` `code`.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "is a directory"
        case ENOTDIR: return "a component of the path is not a directory"
        case ELOOP: return "too many symbolic links"
        default:
            let text = String(cString: strerror(code))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }
}
