import ArgumentParser

/// Replays notifications a server missed: prints a JSON summary, exits 1 when any was not stored.
struct Ingest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Store App Store Server Notifications from files as the endpoints would.",
        discussion: """
            Each FILE holds one {"signedPayload": JWS} object, or lines of such objects or bare JWS. \
            Each notification is verified and stored as the endpoint of its own data.environment would, \
            against the database's app registry. Prints {"files", "notifications", "stored", "failed", "failures"}. \
            A SQLite database belongs to one process: ingest while its server is stopped (a running server's lock refuses it).
            """)

    @OptionGroup var storage: DatabaseOptions
    @Option(name: .customLong("root-g3"), help: "Certificate replacing Apple Root CA - G3 (rules kept), repeatable.")
    var rootsG3: [String] = []
    @Argument(help: "Files of signedPayload JSON or bare JWS lines.") var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one FILE") }
    }

    func run() async throws {
        var configuration = try storage.configuration()
        if !rootsG3.isEmpty { configuration.rootsG3 = rootsG3 }
        let summary = try await NotificationIngest.run(files: files, configuration: configuration, logger: try makeLogger("warning"))
        print(summary.json)
        if summary.failed > 0 { throw ExitCode(1) }
    }
}
