import Foundation

/// The `openssl` command for cross-checks (signatures verified by OpenSSL, keys it generates).
/// Tests skip with a message when it is absent, except under CI=true, where it must be present.
public enum OpenSSLTool {
    /// The first `openssl` on PATH or in the usual folders.
    public static let url: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/bin"]
        return folders.map { URL(fileURLWithPath: $0).appendingPathComponent("openssl") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Whether the environment says this is CI (CI=true), where openssl is required.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// What a run printed and how it ended.
    public struct Result: Sendable {
        public let status: Int32
        public let output: String
        public let error: String
    }

    /// Runs openssl with `arguments` in `directory`; nil when openssl is absent.
    public static func run(_ arguments: [String], in directory: URL) throws -> Result? {
        guard let url else { return nil }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        // Standard error goes to a file, so that a full pipe cannot block the tool.
        let errorFile = directory.appendingPathComponent("openssl-stderr-\(UUID().uuidString).txt")
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
        return Result(
            status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
            error: String(decoding: error, as: UTF8.self))
    }

    /// Runs `body` with a new empty folder that is removed afterwards.
    public static func withTemporaryDirectory<R>(_ body: (URL) throws -> R) throws -> R {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openssl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    /// The SubjectPublicKeyInfo DER of a P-256 public key given as 0x04 ‖ X ‖ Y (RFC 5480 §2:
    /// id-ecPublicKey, namedCurve prime256v1, the point as the BIT STRING).
    public static func p256SubjectPublicKeyInfo(x963 point: [UInt8]) -> [UInt8] {
        let prefix: [UInt8] = [
            0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86,
            0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
        ]
        precondition(point.count == 65, "an uncompressed P-256 point")
        return prefix + point
    }
}
