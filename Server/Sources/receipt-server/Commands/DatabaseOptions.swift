import ArgumentParser

/// Options naming the database (shared by every command).
struct DatabaseOptions: ParsableArguments {
    @Option(
        help:
            "sqlite:PATH or postgres://USER[:PASS]@HOST:PORT/DB (default sqlite:./receipt-server.sqlite; only the server creates a missing SQLite file)."
    )
    var database: String?

    @Option(
        help: ArgumentHelp(
            "File holding the operator's secrets key (32 random bytes, raw or base64) that seals the apps' encryption keys.",
            discussion: """
                Default: the environment variable RECEIPT_SERVER_SECRETS_KEY (base64), else, for sqlite:PATH, a key file beside the \
                database (PATH without its extension plus .secrets-key), generated 0600 on first use (a development setup). \
                PostgreSQL needs one of the two. A wrong key stops the command at start.
                """, valueName: "path"))
    var secretsKeyFile: String?

    @Option(help: "A JSON file with the same keys as the options; options given here win.")
    var config: String?

    /// The config file's values (or the defaults) with `--database` and `--secrets-key-file` applied.
    func configuration() throws -> ServerConfiguration {
        var configuration = try config.map { path throws(ConfigurationError) in try ServerConfiguration(configFile: path) } ?? ServerConfiguration()
        if let database { configuration.database = database }
        if let secretsKeyFile { configuration.secretsKeyFile = secretsKeyFile }
        return configuration
    }
}
