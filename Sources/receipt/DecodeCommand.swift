import AppReceipt
import Foundation
import LegacyReceipt

/// `receipt decode FILE [--json]`: parse only, no trust decision. Exit 0, or 2 when malformed.
enum DecodeCommand {
    static func run(_ options: inout Options) throws {
        let path = try options.file()
        let json = options.flag("--json")
        try options.rejectUnknown()
        let raw = try Input.readRaw(path)
        if let token = Input.compactJWS(raw) { return try JWSCommands.decode(token, json: json) }
        if TransactionReceipt.recognises(raw) { return try LegacyCommands.decode(raw, json: json) }
        let receipt = try ReceiptLoader.load(raw, json: json)
        // Nothing was verified: the receipt without verifyReceipt's `status`.
        Output.write((json ? #"{"receipt":"# + ReceiptJSON.receiptObject(receipt) + "}" : Summary.text(receipt)) + "\n")
    }
}

/// Reading a receipt for `decode` and `verify`: malformed input ends the command with status 2.
enum ReceiptLoader {
    /// The receipt in `raw` (DER, base64 or PEM); input that cannot be a receipt at all is said
    /// to be so (`ReceiptInput.notAReceipt`), other failures name the decoding rule.
    static func load(_ raw: [UInt8], json: Bool) throws -> AppReceipt {
        let bytes = ReceiptInput.decode(raw)
        do {
            return try AppReceipt(bytes)
        } catch {
            if json { Output.write(ReceiptJSON.failure(.malformed) + "\n") }
            let message = ReceiptInput.notAReceipt(bytes).map { "not a receipt: \($0)" } ?? "malformed receipt: \(error)"
            throw ToolFailure(status: .malformed, message: message)
        }
    }
}

/// A short human-readable account of a receipt.
enum Summary {
    static func text(_ r: AppReceipt) -> String {
        var lines = [
            "environment: \(r.environment.rawValue)",
            "bundle id: \(r.bundleIdentifier)",
            "app version: \(r.appVersion)",
            "created: \(iso(r.creationDate))",
        ]
        if let original = r.originalAppVersion { lines.append("original app version: \(original)") }
        if let expiry = r.expirationDate { lines.append("expires: \(iso(expiry))") }
        lines.append("in-app purchases: \(r.inAppPurchases.count)")
        for p in r.inAppPurchases {
            var line = "  \(p.productIdentifier) transaction \(p.transactionIdentifier) purchased \(iso(p.purchaseDate))"
            if let expiry = p.subscriptionExpirationDate { line += " expires \(iso(expiry))" }
            if let cancelled = p.cancellationDate { line += " cancelled \(iso(cancelled))" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// RFC 3339 in UTC, `2024-03-01T12:00:00Z` (ISO8601DateFormatter: macOS 10.12, iOS 10; what
    /// `Date.formatted(.iso8601)` prints, which needs macOS 12 / iOS 15).
    static func iso(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
