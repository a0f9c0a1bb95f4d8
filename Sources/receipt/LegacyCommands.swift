import AppReceipt
import Foundation
import LegacyReceipt
import X509Certificates

/// `receipt verify|decode` for iOS 6-style transaction receipts (the dictionary text, or its
/// base64). Exit 0 valid or decoded, 1 not valid (not authentic, expired, wrong bundle id),
/// 2 malformed, 64 usage, as for app receipts.
enum LegacyCommands {
    /// `verify FILE [--root CERT]... [--bundle-id ID] [--at now|receipt|RFC3339] [--json]`; `--at
    /// receipt` (the default) is the purchase date, `purchase-date-ms`.
    static func verify(_ raw: [UInt8], _ options: inout Options) throws {
        let json = options.flag("--json")
        let policyName = try options.value("--policy") ?? "appstore"
        guard policyName == "appstore" else {
            throw ToolFailure.usage("transaction receipts have only the appstore policy, not '\(policyName)'")
        }
        var policy = LegacyTrustPolicy.appStore
        let roots = options.values("--root")
        if !roots.isEmpty {
            let anchors = try VerifyCommand.policy("appstore", roots: roots).anchors
            policy = .appStore(anchors: anchors)
        }
        let bundle = try options.value("--bundle-id")
        let at = try options.value("--at")
        let time = try JWSCommands.validationTime(at).map { Date(timeIntervalSince1970: TimeInterval($0)) }
        for option in ["--app-version", "--device-guid"] where try options.value(option) != nil {
            throw ToolFailure.usage("\(option) applies to app receipts, not to transaction receipts")
        }
        try options.rejectUnknown()

        let receipt = try load(raw, json: json)
        let verified: VerifiedTransactionReceipt
        do {
            verified = try receipt.verify(policy: policy, at: time)
        } catch {
            if json { Output.write(ReceiptJSON.failure(.notAuthenticated) + "\n") }
            throw ToolFailure(status: .verificationFailed, message: message(error, judgedNow: at == "now"))
        }
        if let bundle, bundle != receipt.bundleIdentifier {
            if json { Output.write(ReceiptJSON.failure(.notAuthenticated) + "\n") }
            throw ToolFailure(status: .verificationFailed, message: "not valid: bundle identifier \(receipt.bundleIdentifier) is not \(bundle)")
        }
        if json {
            Output.write(TransactionReceiptJSON.response(receipt) + "\n")
        } else {
            let chain = verified.chain.map(\.subjectDescription).joined(separator: " <- ")
            Output.write("valid (\(policy.name)): \(chain)\n" + summary(receipt) + "\n")
        }
    }

    /// `decode FILE [--json]`: parse only, no trust decision.
    static func decode(_ raw: [UInt8], json: Bool) throws {
        let receipt = try load(raw, json: json)
        Output.write((json ? TransactionReceiptJSON.response(receipt) : "not verified\n" + summary(receipt)) + "\n")
    }

    /// Malformed input ends the command with status 2 (and 21002 under `--json`).
    static func load(_ raw: [UInt8], json: Bool) throws -> TransactionReceipt {
        do {
            return try TransactionReceipt(raw)
        } catch {
            if json { Output.write(ReceiptJSON.failure(.malformed) + "\n") }
            throw ToolFailure(status: .malformed, message: "malformed transaction receipt: \(error)")
        }
    }

    /// The refusal line, with the `--at now` hint app receipts give.
    static func message(_ error: TransactionReceiptValidationError, judgedNow: Bool) -> String {
        if judgedNow, case .untrusted(.expired) = error {
            return "not valid: \(error); Apple's signing certificates expire while their receipts stay valid: --at receipt (the default) judges them at the purchase date"
        }
        return "not valid: \(error)"
    }

    /// A short human-readable account of the receipt.
    static func summary(_ r: TransactionReceipt) -> String {
        var lines = [
            "transaction receipt: version \(r.signature.version.rawValue), environment \(r.environment ?? "Production")",
            "bundle id: \(r.bundleIdentifier)",
            "product id: \(r.productIdentifier)",
            "transaction id: \(r.transactionIdentifier)",
            "purchased: \(Summary.iso(r.purchaseDate.date))",
        ]
        if let original = r.originalTransactionIdentifier { lines.append("original transaction id: \(original)") }
        if let expires = r.expiresDate { lines.append("expires: \(Summary.iso(expires.date))") }
        return lines.joined(separator: "\n")
    }
}
