import AppStoreJWS
import VerifyCommandCore

/// The options the signing commands share, read from `Options`, each failure a usage error.
extension Options {
    /// The value of an option that must be given once.
    mutating func required(_ name: String) throws -> String {
        guard let value = try value(name) else { throw ToolFailure.usage("\(name) is required") }
        return value
    }

    /// A decimal integer option in `range`, or `nil` when absent.
    mutating func integer(_ name: String, in range: ClosedRange<Int64>) throws -> Int64? {
        guard let text = try value(name) else { return nil }
        guard text.utf8.allSatisfy({ (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains($0) }), let value = Int64(text), range.contains(value)
        else {
            throw ToolFailure.usage("\(name) expects a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// `--issued-at SECONDS`, defaulting to now (seconds since 1970, up to the end of year 9999).
    mutating func issuedAt() throws -> Int64 {
        try integer("--issued-at", in: 0 ... 253_402_300_799) ?? AppStoreSigner.currentTime()
    }

    /// Fails when the command was given an operand (the signing commands take options only).
    func rejectOperands() throws {
        if let operand = positionals.first { throw ToolFailure.usage("unexpected operand '\(operand)'") }
    }
}

/// `--key FILE --key-id KID --bundle-id BID` and, for the JWS commands, `--issuer ISSUER_ID`.
struct SignerOptions {
    let keyPath: String
    let keyID: String
    let issuerID: String
    let bundleID: String

    /// Reads the options; `issuer`: whether `--issuer` is required (it is not signed in the
    /// promotional offer signature V1).
    init(_ options: inout Options, issuer: Bool) throws {
        keyPath = try options.required("--key")
        keyID = try options.required("--key-id")
        issuerID = issuer ? try options.required("--issuer") : ""
        bundleID = try options.required("--bundle-id")
    }

    /// The signer, its key read from the file: call after every usage check.
    func signer() throws -> AppStoreSigner {
        AppStoreSigner(key: try KeyFile.signingKey(keyPath), keyID: keyID, issuerID: issuerID, bundleID: bundleID)
    }
}
