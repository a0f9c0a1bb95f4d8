import NIOCore
import ReceiptStore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks, before the database is opened, that the server can listen where it is told to: a
/// socket is bound to the address as the server's own will be (the host resolved as NIO resolves
/// it, `SO_REUSEADDR` set) and closed again. A port another process holds then stops start-up
/// with the address and the option to change, and nothing has been created or migrated yet.
/// Port 0 (any free port) needs no check.
enum ListenCheck {
    /// Throws `ConfigurationError.cannotListen` when `host:port` cannot be bound; `option` and
    /// `hostOption` are the flags that set them (`--port` and `--host`, or `--metrics-port` and
    /// `--metrics-host`).
    static func check(host: String, port: Int, option: String, hostOption: String) throws(ConfigurationError) {
        guard port != 0 else { return }
        let address: SocketAddress
        do {
            address = try SocketAddress.makeAddressResolvingHost(host, port: port)
        } catch {
            throw .cannotListen(
                address: DatabaseLocation.hostPort(host, port), option: option,
                reason: "cannot resolve host '\(host)'; check \(hostOption)")
        }
        #if canImport(Glibc)
            let fd = socket(address.protocol.rawValue, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(address.protocol.rawValue, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return }   // no socket to try with: let the server's own bind report
        defer { close(fd) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let result = address.withSockAddr { pointer, size in bind(fd, pointer, socklen_t(size)) }
        guard result != 0 else { return }
        let code = errno
        throw .cannotListen(
            address: DatabaseLocation.hostPort(host, port), option: option, reason: reason(code, option: option, hostOption: hostOption))
    }

    /// What `errno` after `bind` means for the operator.
    static func reason(_ code: Int32, option: String, hostOption: String) -> String {
        switch code {
        case EADDRINUSE:
            return "address already in use (another receipt-server or another program listens there); stop it or choose another \(option)"
        case EACCES:
            return "permission denied (ports below 1024 need privileges); choose another \(option)"
        case EADDRNOTAVAIL:
            return "no interface of this machine has that address; check \(hostOption)"
        default:
            return "\(String(cString: strerror(code))); check \(hostOption) and \(option)"
        }
    }
}
