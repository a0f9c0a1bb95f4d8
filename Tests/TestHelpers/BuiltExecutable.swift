import Foundation

/// Executables of this package that `swift test` builds along with the tests (the `receipt` tool).
public enum BuiltExecutable {
    /// The executable `name` beside the test bundle, else under a `.build/debug` of this package.
    public static func url(_ name: String) -> URL? {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        if let first = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0 ..< 6 {
            candidates.append(directory.appendingPathComponent(".build/debug"))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(Fixtures.packageRoot.appendingPathComponent(".build/debug"))
        return candidates.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
