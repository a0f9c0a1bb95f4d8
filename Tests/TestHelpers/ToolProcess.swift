import Foundation

/// Runs a command-line tool for cross-checks (OpenSSL and others), one way for every test target.
public enum ToolProcess {
    /// What a run printed and how it ended.
    public struct Result: Sendable {
        public let status: Int32
        public let output: Data
        public let error: Data
    }

    /// The first executable named `name` on PATH (or in /usr/bin, /usr/local/bin, /bin).
    public static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/bin"]
        return folders.map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `executable` with `arguments` in `directory`. Standard error goes to a file, so that a
    /// chatty tool cannot block on a full pipe while standard output is being read.
    public static func run(_ executable: URL, _ arguments: [String], in directory: URL) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let errorFile = directory.appendingPathComponent("stderr-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        defer { try? errorHandle.close() }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errorHandle
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let error = FileManager.default.contents(atPath: errorFile.path) ?? Data()
        return Result(status: process.terminationStatus, output: output, error: error)
    }
}
