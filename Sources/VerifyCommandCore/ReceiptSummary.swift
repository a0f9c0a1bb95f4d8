import AppReceipt
import DER

/// Reading a receipt for `decode` and `verify`: malformed input ends the command with status 2.
package enum ReceiptLoader {
    /// The receipt in `raw` (DER, base64 or PEM); input that cannot be a receipt at all is said
    /// to be so (`ReceiptInput.notAReceipt`), other failures name the decoding rule.
    package static func load(_ raw: [UInt8], json: Bool, _ output: inout CommandOutput) throws(ToolFailure) -> AppReceipt {
        let bytes = ReceiptInput.decode(raw)
        do throws(ReceiptError) {
            return try AppReceipt(bytes)
        } catch {
            if json { output.write(ReceiptJSON.failure(.malformed) + "\n") }
            let message = ReceiptInput.notAReceipt(bytes).map { "not a receipt: \($0)" } ?? "malformed receipt: \(error)"
            throw ToolFailure(status: .malformed, message: message)
        }
    }
}

/// A short human-readable account of a receipt.
package enum ReceiptSummary {
    package static func text(_ r: AppReceipt) -> String {
        var lines = [
            "environment: \(r.environment.rawValue)",
            "bundle id: \(r.bundleIdentifier)",
            "app version: \(r.appVersion)",
            "created: \(iso(r.creationDateMilliseconds))",
        ]
        if let original = r.originalAppVersion { lines.append("original app version: \(original)") }
        if let expiry = r.expirationDateMilliseconds { lines.append("expires: \(iso(expiry))") }
        lines.append("in-app purchases: \(r.inAppPurchases.count)")
        for p in r.inAppPurchases {
            var line = "  \(p.productIdentifier) transaction \(p.transactionIdentifier) purchased \(iso(p.purchaseDateMilliseconds))"
            if let expiry = p.subscriptionExpirationDateMilliseconds { line += " expires \(iso(expiry))" }
            if let cancelled = p.cancellationDateMilliseconds { line += " cancelled \(iso(cancelled))" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// RFC 3339 in UTC to the second, rounded down: `2024-03-01T12:00:00Z` (what Foundation's
    /// `ISO8601DateFormatter` printed here before).
    package static func iso(_ milliseconds: Int64) -> String {
        CivilTime.text(secondsSince1970: AppleDateFormat.floorSeconds(milliseconds))
    }
}
