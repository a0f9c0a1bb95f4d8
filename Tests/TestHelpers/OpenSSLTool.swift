import Foundation

/// The `openssl` command for cross-checks (signatures verified by OpenSSL, keys it generates).
/// Tests skip with a message when it is absent, except under CI=true, where it must be present.
public enum OpenSSLTool {
    /// The first `openssl` on PATH or in the usual folders.
    public static let url: URL? = ToolProcess.find("openssl")

    /// Whether the environment says this is CI (CI=true), where openssl is required.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// What a run printed and how it ended.
    public struct Result: Sendable {
        public let status: Int32
        public let output: String
        public let error: String
    }

    /// Runs openssl with `arguments` in `directory` (`ToolProcess.run`); nil when openssl is absent.
    public static func run(_ arguments: [String], in directory: URL) throws -> Result? {
        guard let url else { return nil }
        let run = try ToolProcess.run(url, arguments, in: directory)
        return Result(
            status: run.status, output: String(decoding: run.output, as: UTF8.self), error: String(decoding: run.error, as: UTF8.self))
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
