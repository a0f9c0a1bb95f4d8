import Foundation

/// Locates the shared fixtures (`../shared/fixtures` beside the repository root) and the root
/// package's build products. Read in place, never copied. When the fixture folder is missing,
/// fixture tests are skipped on a developer machine and fail under `CI=true`.
enum Fixtures {
    /// The repository root: this file is `Server/Tests/ReceiptServerTests/Support/Fixtures.swift`.
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 5 { url.deleteLastPathComponent() }
        return url
    }()

    /// `../shared/fixtures`, whether or not it exists.
    static let directory = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    static let isCI = ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"

    static let isPresent: Bool = {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }()

    /// Fixture tests run when the folder is there, and always under CI (where its absence fails them).
    static let shouldRun = isPresent || isCI

    /// Reads `relativePath` under the fixture folder; a missing file is a test failure.
    static func bytes(_ relativePath: String) throws -> [UInt8] {
        let url = directory.appendingPathComponent(relativePath)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw FixtureMissing(path: url.path) }
        return [UInt8](data)
    }

    /// A file of the repository (`Examples/sample-receipt.der`, …).
    static func repositoryFile(_ relativePath: String) throws -> [UInt8] {
        let url = repositoryRoot.appendingPathComponent(relativePath)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw FixtureMissing(path: url.path) }
        return [UInt8](data)
    }

    /// The fixture receipts: name, the endpoint they belong to, and whether they need `--allow-xcode`.
    static let receipts: [(name: String, sandbox: Bool, xcode: Bool)] = [
        ("production", false, false), ("sandbox-g5", true, false), ("sandbox-legacy", true, false),
        ("xcode", true, true), ("xcode-with-purchases", true, true),
    ]
}

struct FixtureMissing: Error, CustomStringConvertible {
    let path: String
    var description: String { "fixture missing: \(path) (the shared fixtures must sit at ../shared/fixtures)" }
}
