/// Command-line options, parsed by hand: `--name value`, `--flag`, and positional operands.
package struct Options {
    package private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    private var consumed: Set<String> = []

    /// Options that take a value; every other `--name` is a flag.
    package static let valued: Set<String> = [
        "--policy", "--root", "--bundle-id", "--app-version", "--device-guid", "--at",
        // The signing commands (jwt, offer-signature, offer-jws).
        "--key", "--key-id", "--issuer", "--audience", "--issued-at", "--lifetime", "--product", "--offer",
        "--app-account-token", "--nonce", "--timestamp", "--product-id", "--offer-identifier", "--transaction-id",
        "--allow-introductory-offer", "--request-json",
    ]

    package init(_ arguments: [String]) throws(ToolFailure) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument.hasPrefix("--") {
                if Options.valued.contains(argument) {
                    guard index < arguments.count else { throw ToolFailure.usage("\(argument) needs a value") }
                    values[argument, default: []].append(arguments[index])
                    index += 1
                } else {
                    flags.insert(argument)
                }
            } else {
                positionals.append(argument)
            }
        }
    }

    /// The single FILE operand.
    package mutating func file() throws(ToolFailure) -> String {
        guard positionals.count == 1 else {
            throw ToolFailure.usage(positionals.isEmpty ? "missing FILE" : "expected one FILE, got \(positionals.count)")
        }
        return positionals[0]
    }

    package mutating func flag(_ name: String) -> Bool {
        consumed.insert(name)
        return flags.contains(name)
    }

    /// All values given for a repeatable option.
    package mutating func values(_ name: String) -> [String] {
        consumed.insert(name)
        return values[name] ?? []
    }

    /// The value of an option given at most once.
    package mutating func value(_ name: String) throws(ToolFailure) -> String? {
        let all = values(name)
        guard all.count <= 1 else { throw ToolFailure.usage("\(name) given more than once") }
        return all.first
    }

    /// Fails on any option the command did not ask about.
    package func rejectUnknown() throws(ToolFailure) {
        let unknown = flags.union(values.keys).subtracting(consumed)
        if let name = unknown.sorted().first { throw ToolFailure.usage("unknown option \(name)") }
    }
}
