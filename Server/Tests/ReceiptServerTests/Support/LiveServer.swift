import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// The built `receipt-server` executable, started as its own process on a free loopback port.
final class LiveServer: Sendable {
    let process: Process
    let port: Int
    /// Everything the process wrote to standard error (its JSON log lines).
    let log: LogBuffer

    /// Bytes collected from a pipe.
    final class LogBuffer: Sendable {
        let bytes = Mutex<[UInt8]>([])
        var text: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }
    }

    /// The executable that `swift build`/`swift test` put beside the test bundle.
    static var executable: URL? {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first { candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Fixtures.repositoryRoot.appendingPathComponent("Server/.build/debug"))
        return candidates.map { $0.appendingPathComponent("receipt-server") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Starts `receipt-server serve ARGUMENTS --port 0` and waits for its "listening" log line;
    /// the environment holds the tests' secrets key unless `environment` is given; the working
    /// directory is `directory` when given.
    static func start(_ arguments: [String], environment: [String: String]? = nil, directory: String? = nil) async throws -> LiveServer {
        guard let executable else { throw UnexpectedAnswer(description: "receipt-server executable not built") }
        let process = Process()
        process.executableURL = executable
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.arguments = ["serve"] + arguments + ["--host", "127.0.0.1", "--port", "0"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.environment = environment ?? TestSecrets.environment
        let log = LogBuffer()
        errors.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            if chunk.isEmpty { handle.readabilityHandler = nil } else { log.bytes.withLock { $0 += chunk } }
        }
        try process.run()
        for _ in 0 ..< 1200 {
            if let port = listeningPort(in: log.text) { return LiveServer(process: process, port: port, log: log) }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        if process.isRunning { process.terminate() }   // as `kill()`: never an exited pid
        throw UnexpectedAnswer(description: "receipt-server did not start: \(log.text)")
    }

    private init(process: Process, port: Int, log: LogBuffer) {
        self.process = process
        self.port = port
        self.log = log
    }

    /// The port from the `{"message":"listening","port":"N",…}` log line.
    static func listeningPort(in log: String) -> Int? {
        for line in log.split(separator: "\n") where line.contains(#""message":"listening""#) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let port = (object["port"] as? String).flatMap({ Int($0) })
            else { continue }
            return port
        }
        return nil
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var logText: String { log.text }

    /// SIGKILL: no chance to finish anything.
    func kill() {
        // Only a running process: an exited pid may be reused by another process, or by a
        // thread of this test process (kill(2) of a thread id signals its whole process).
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM and wait for the exit status.
    func terminate() -> Int32 {
        if process.isRunning { process.terminate() }   // as `kill()`: never an exited pid
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Runs `receipt-server ARGUMENTS` to completion and returns its standard output; the
    /// environment holds the tests' secrets key unless `environment` is given.
    static func run(_ arguments: [String], environment: [String: String]? = nil) async throws -> (status: Int32, output: String) {
        guard let executable else { throw UnexpectedAnswer(description: "receipt-server executable not built") }
        let (status, output) = try await runProcess(executable, arguments, environment: environment ?? TestSecrets.environment)
        return (status, String(decoding: output, as: UTF8.self))
    }

    /// Runs `receipt-server ARGUMENTS` to completion (in `directory` when given); its exit status
    /// and standard error.
    static func runForErrors(
        _ arguments: [String], environment: [String: String]? = nil,
        directory: String? = nil
    ) async throws -> (status: Int32, errors: String) {
        guard let executable else { throw UnexpectedAnswer(description: "receipt-server executable not built") }
        let process = Process()
        process.executableURL = executable
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.arguments = arguments
        process.environment = environment ?? TestSecrets.environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Read and waited for off the cooperative pool (`offPool`).
        let data = try await offPool { () -> Data in
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return data
        }
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Creates a SQLite test database as an operator does, by starting the server once (commands
    /// refuse a database that does not exist); nothing for PostgreSQL, whose database exists.
    static func createDatabase(_ database: TestDatabase, environment: [String: String]? = nil) async throws {
        guard database.sqlitePath != nil else { return }
        let server = try await start(["--database", database.url], environment: environment)
        guard server.terminate() == 0 else { throw UnexpectedAnswer(description: "the server did not stop cleanly: \(server.logText)") }
    }

    /// `receipt-server stats --database URL`, parsed.
    static func stats(_ database: TestDatabase) async throws -> [String: Int] {
        let (status, output) = try await run(["stats", "--database", database.url])
        guard status == 0, let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Int] else {
            throw UnexpectedAnswer(description: "stats failed (\(status)): \(output)")
        }
        return object
    }
}

/// Runs `executable` to completion; returns its exit status and standard output.
func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) async throws -> (status: Int32, output: Data) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Read and waited for off the cooperative pool (`offPool`).
    let data = try await offPool { () -> Data in
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }
    return (process.terminationStatus, data)
}

/// A loopback HTTP client for live tests.
enum LiveClient {
    static func post(_ client: HTTPClient, _ url: String, _ body: Data) async throws -> (code: UInt, json: [String: Any]) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await client.execute(request, timeout: .seconds(60))
        let buffer = try await response.body.collect(upTo: 16 << 20)
        return (response.status.code, try JSONAnswer.object(buffer))
    }
}
