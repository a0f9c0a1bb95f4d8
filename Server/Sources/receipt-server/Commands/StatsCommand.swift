import ArgumentParser

/// Prints row counts as JSON and exits.
struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: #"Print {"receipts": N, "transactions": N, "notifications": N}."#)

    @OptionGroup var storage: DatabaseOptions

    func run() async throws {
        let configuration = try storage.configuration()
        let counts = try await ConfiguredStore.with(configuration, logger: try makeLogger("warning")) { store, _ in try await store.counts() }
        print(#"{"receipts": \#(counts.receipts), "transactions": \#(counts.transactions), "notifications": \#(counts.notifications)}"#)
    }
}
