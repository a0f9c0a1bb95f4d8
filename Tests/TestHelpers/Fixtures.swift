import Foundation

/// Locates the shared, externally sourced fixtures (`../shared/fixtures` beside the package root).
///
/// Tests read those files in place and never copy them into the repository. When the folder is
/// missing, tests that need it are skipped on a developer machine but *fail* when `CI=true`.
public enum Fixtures {
    /// The package root, derived from this source file's location (`Tests/TestHelpers/Fixtures.swift`).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/fixtures`, whether or not it exists.
    public static let directory: URL =
        packageRoot
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    /// True when running under CI (`CI=true`).
    public static let isCI: Bool = ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"

    /// True when the shared fixture folder exists.
    public static let isPresent: Bool = {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }()

    /// Whether fixture-driven tests should run: always under CI (so a missing folder fails them),
    /// otherwise only when the folder is there.
    public static let shouldRun: Bool = isPresent || isCI

    /// The URL of a file inside the fixture folder, e.g. `url("receipts/production.der")`.
    public static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    /// Reads a fixture file; throws `FixtureError.missing` (a test failure) when it is absent.
    public static func bytes(_ relativePath: String) throws -> [UInt8] {
        let file = url(relativePath)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw FixtureError.missing(file.path)
        }
        return [UInt8](data)
    }

    /// Names of the files in a fixture sub-folder, sorted; throws when the folder is missing.
    public static func files(in relativeFolder: String, withExtension ext: String? = nil) throws -> [String] {
        let folder = url(relativeFolder)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            throw FixtureError.missing(folder.path)
        }
        return names.filter { ext == nil || $0.hasSuffix("." + ext!) }.sorted()
    }

    /// The fixture receipts by short name (`production`, `sandbox-g5`, …).
    public static let receiptNames = ["production", "sandbox-g5", "sandbox-legacy", "xcode", "xcode-with-purchases"]
}

/// A fixture that a test needs could not be read.
public enum FixtureError: Error, CustomStringConvertible {
    case missing(String)

    public var description: String {
        switch self {
        case .missing(let path):
            return "fixture missing: \(path) (the shared fixtures must sit at ../shared/fixtures)"
        }
    }
}
