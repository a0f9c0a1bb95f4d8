import Crypto
import Foundation
import Testing

/// Apple's official App Store Server API client (`app-store-server-library`, Python), which
/// `Server/ci` installs into a virtual environment and names in `RECEIPT_SERVER_TEST_PYTHON`,
/// driven by `Server/Tests/apple-client/conformance.py`.
enum AppleClient {
    static let pythonVariable = "RECEIPT_SERVER_TEST_PYTHON"
    /// The virtual environment's python, when set.
    static let python = ProcessInfo.processInfo.environment[pythonVariable].flatMap { $0.isEmpty ? nil : $0 }
    /// The tests run where the client is installed, and always under CI, where its absence fails them.
    static let shouldRun = python != nil || Fixtures.isCI
    static let skipReason: Comment =
        "\(pythonVariable) is not set: Server/ci installs Apple's app-store-server-library in a virtual environment and sets it"

    static let script = Fixtures.repositoryRoot.appendingPathComponent("Server/Tests/apple-client/conformance.py")

    /// A new In-App Purchase key as App Store Connect gives it: a `.p8` file (PEM PKCS#8, EC P-256).
    static func writeKey(in directory: URL, keyID: String) throws -> URL {
        let url = directory.appendingPathComponent("AuthKey_\(keyID).p8")
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: url)
        return url
    }

    /// What conformance.py printed and how it ended.
    struct Run {
        let status: Int32
        let summary: [String: Any]?
        let output: String
        let errors: String
    }

    /// Runs conformance.py with `input` (its JSON written to a file in `directory`).
    static func conformance(_ input: [String: Any], directory: URL) async throws -> Run {
        guard let python else { throw UnexpectedAnswer(description: "\(pythonVariable) is not set: run Server/ci") }
        let inputURL = directory.appendingPathComponent("conformance-input.json")
        try JSONSerialization.data(withJSONObject: input, options: [.sortedKeys]).write(to: inputURL)
        // Files, not pipes: nothing can block on a full pipe.
        let outputURL = directory.appendingPathComponent("conformance-output.json")
        let errorsURL = directory.appendingPathComponent("conformance-errors.txt")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorsURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        let errors = try FileHandle(forWritingTo: errorsURL)
        defer {
            try? output.close()
            try? errors.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path, inputURL.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        try await offPool { process.waitUntilExit() }
        let printed = (try? Data(contentsOf: outputURL)) ?? Data()
        return Run(
            status: process.terminationStatus,
            summary: try? JSONSerialization.jsonObject(with: printed) as? [String: Any],
            output: String(decoding: printed, as: UTF8.self),
            errors: String(decoding: (try? Data(contentsOf: errorsURL)) ?? Data(), as: UTF8.self))
    }
}
