#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// A PostgreSQL 15 cluster of one test's own (initdb/pg_ctl under a temporary directory, as the
/// `postgres` user when the tests run as root, as `Server/ci` does), so that stopping it does not
/// disturb the tests running beside it on `Server/ci`'s cluster.
final class PrivateCluster: Sendable {
    static let binaries = "/usr/lib/postgresql/15/bin"
    /// Whether PostgreSQL 15 is installed (`Server/ci` installs it).
    static let installed = FileManager.default.isExecutableFile(atPath: binaries + "/initdb")
    /// Fault tests on PostgreSQL run where it is installed, and always under `CI=true`, where its
    /// absence fails them.
    static let shouldRun = installed || Fixtures.isCI

    let directory: String
    let port: Int
    /// `postgres://postgres@127.0.0.1:PORT/postgres`.
    var url: String { "postgres://postgres@127.0.0.1:\(port)/postgres" }

    /// Makes and starts a new cluster on a free loopback port.
    init() throws {
        guard Self.installed else {
            throw UnexpectedAnswer(description: "PostgreSQL 15 is not installed in \(Self.binaries): run Server/ci, which installs it")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-fault-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        if getuid() == 0 { try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: directory) }
        port = try Self.freePort()
        try run("initdb", ["-D", directory + "/data", "-U", "postgres", "-A", "trust", "--no-sync"])
        try start()
    }

    /// `pg_ctl start`, waiting until it accepts connections.
    func start() throws {
        try run(
            "pg_ctl",
            [
                "-D", directory + "/data", "-l", directory + "/postgres.log", "-w", "-o",
                "-c listen_addresses=127.0.0.1 -p \(port) -k \(directory) -c max_connections=100 -c shared_buffers=32MB -c fsync=off",
                "start",
            ])
    }

    /// `pg_ctl stop -m immediate`: every backend is killed at once, as in a crash.
    func stopImmediately() throws { try run("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "stop"]) }

    /// Stops the cluster (if running) and removes its directory.
    func remove() {
        try? stopImmediately()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs one of PostgreSQL's programs (as `postgres` when root), its output to a file beside
    /// the cluster; throws on a non-zero exit. Spawned and waited for with POSIX calls, not
    /// `Process`: Foundation notices a child's exit by a descriptor the child inherits, which the
    /// server `pg_ctl start` leaves running would hold open for ever.
    private func run(_ program: String, _ arguments: [String]) throws {
        let path = Self.binaries + "/" + program
        let all = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", path] + arguments : [path] + arguments
        let output = directory + "/\(program).output"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, all[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { throw UnexpectedAnswer(description: "\(program) could not start: errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            throw UnexpectedAnswer(description: "\(program) \(arguments) failed (\(status)): \(text)")
        }
    }

    /// A loopback port free right now.
    static func freePort() throws -> Int {
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else { throw UnexpectedAnswer(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
