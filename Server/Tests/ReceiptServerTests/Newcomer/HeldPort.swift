import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback TCP port held by the test: a socket bound to a free port of 127.0.0.1 and listening
/// (connections wait in its backlog, never answered), until `close()`. Closed at once, it gives a
/// port where nothing listens.
final class HeldPort: @unchecked Sendable {
    let port: Int
    private var descriptor: Int32

    init() throws {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw UnexpectedAnswer(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else {
            closeSocket(fd)
            throw UnexpectedAnswer(description: "bind/listen: errno \(errno)")
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Lets the port go.
    func close() {
        guard descriptor >= 0 else { return }
        closeSocket(descriptor)
        descriptor = -1
    }

    deinit { close() }

    /// A loopback port where nothing listens (held for a moment, then let go).
    static func closed() throws -> Int {
        let held = try HeldPort()
        held.close()
        return held.port
    }
}

/// The C library's `close` (inside `HeldPort`, `close` is the method).
private func closeSocket(_ fd: Int32) {
    _ = close(fd)
}
