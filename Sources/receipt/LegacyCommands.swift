import AppReceipt
import LegacyReceipt
import VerifyCommandCore

/// `receipt decode` for iOS 6-style transaction receipts (the dictionary text, or its base64):
/// exit 0 decoded, 2 malformed (`verify` is VerifyCommandCore's `LegacyVerifyCommand`).
enum LegacyCommands {
    /// `decode FILE [--json]`: parse only, no trust decision.
    static func decode(_ raw: [UInt8], json: Bool) throws {
        var output = CommandOutput()
        defer { Output.write(output.text) }
        let receipt = try LegacyVerifyCommand.load(raw, json: json, &output)
        // Nothing was verified: the receipt without verifyReceipt's `status`.
        output.write(
            (json ? #"{"receipt":"# + TransactionReceiptJSON.receiptObject(receipt) + "}" : "not verified\n" + LegacyVerifyCommand.summary(receipt))
                + "\n")
    }
}
