import AppReceipt
import LegacyReceipt
import VerifyCommandCore

/// `receipt decode FILE [--json]`: parse only, no trust decision. Exit 0, or 2 when malformed.
enum DecodeCommand {
    static func run(_ options: inout Options) throws {
        let path = try options.file()
        let json = options.flag("--json")
        try options.rejectUnknown()
        let raw = try Input.readRaw(path)
        if let token = Input.compactJWS(raw) { return try JWSCommands.decode(token, json: json) }
        if TransactionReceipt.recognises(raw) { return try LegacyCommands.decode(raw, json: json) }
        var output = CommandOutput()
        defer { Output.write(output.text) }
        let receipt = try ReceiptLoader.load(raw, json: json, &output)
        // Nothing was verified: the receipt without verifyReceipt's `status`.
        output.write((json ? #"{"receipt":"# + ReceiptJSON.receiptObject(receipt) + "}" : ReceiptSummary.text(receipt)) + "\n")
    }
}
