import AppReceipt
import LegacyReceipt
import X509Certificates

/// `receipt verify` for iOS 6-style transaction receipts (the dictionary text, or its base64).
/// Exit 0 valid, 1 not valid (not authentic, expired, wrong bundle id, app version or device),
/// 2 malformed, 64 usage, as for app receipts.
package enum LegacyVerifyCommand {
    /// `verify FILE [--policy appstore|xcode] [--root CERT]... [--bundle-id ID] [--app-version V]
    /// [--device-guid HEX] [--at now|receipt|RFC3339] [--json]`. `--at receipt` (the default) is
    /// the purchase date, `purchase-date-ms`; `--app-version` is compared with `bvrs`,
    /// `--device-guid` with `unique-vendor-identifier` (`identifierForVendor`); `--policy xcode`
    /// trusts no transaction receipt (Xcode never made them).
    static func verify(_ raw: [UInt8], _ options: inout Options, _ context: VerifyContext, _ output: inout CommandOutput) throws(ToolFailure) {
        let json = options.flag("--json")
        let policyName = try options.value("--policy") ?? "appstore"
        guard policyName == "appstore" || policyName == "xcode" else {
            throw ToolFailure.usage("unknown policy '\(policyName)' (appstore or xcode)")
        }
        var policy = LegacyTrustPolicy.appStore
        let roots = options.values("--root")
        if !roots.isEmpty {
            let anchors = try VerifyCommand.policy("appstore", roots: roots, context).anchors
            policy = .appStore(anchors: anchors)
        }
        let bundle = try options.value("--bundle-id")
        let version = try options.value("--app-version")
        let device = try options.value("--device-guid").map(VerifyCommand.deviceIdentifier)
        let at = try options.value("--at")
        let time = try JWSVerifyCommand.validationTime(at, context)
        try options.rejectUnknown()

        let receipt = try load(raw, json: json, &output)
        let verified: VerifiedTransactionReceipt
        do throws(Refusal) {
            verified = try check(
                receipt, policyName: policyName, policy: policy, time: time, judgedNow: at == "now",
                bundle: bundle, version: version, device: device)
        } catch {
            if json { output.write(ReceiptJSON.failure(.notAuthenticated) + "\n") }
            throw ToolFailure(status: .verificationFailed, message: "not valid: " + error.reason)
        }
        if json {
            output.write(TransactionReceiptJSON.response(receipt) + "\n")
        } else {
            output.write("valid (\(policy.name)): \(VerifyCommand.chainText(verified.chain))\n" + summary(receipt) + "\n")
        }
    }

    /// Why a decodable receipt is not valid (exit 1).
    struct Refusal: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The checks in the order they run: the policy, the signature and chain at `time`, then
    /// `--bundle-id`, `--app-version` and `--device-guid`.
    private static func check(
        _ receipt: TransactionReceipt, policyName: String, policy: LegacyTrustPolicy, time: Int64?, judgedNow: Bool,
        bundle: String?, version: String?, device: [UInt8]?
    ) throws(Refusal) -> VerifiedTransactionReceipt {
        guard policyName == "appstore" else {
            throw Refusal("transaction receipts are signed by the App Store only: the xcode policy trusts none of them")
        }
        let verified: VerifiedTransactionReceipt
        do throws(TransactionReceiptValidationError) {
            verified = try receipt.verify(policy: policy, atSecondsSince1970: time)
        } catch {
            throw Refusal(message(error, judgedNow: judgedNow))
        }
        if let bundle, bundle != receipt.bundleIdentifier {
            throw Refusal("bundle identifier \(receipt.bundleIdentifier) is not \(bundle)")
        }
        if let version, version != receipt.bundleVersion {
            throw Refusal("app version (bvrs) \(receipt.bundleVersion ?? "absent") is not \(version)")
        }
        if let device, receipt.uniqueVendorIdentifier.flatMap({ try? VerifyCommand.deviceIdentifier($0) }) != device {
            throw Refusal("device identifier does not match unique-vendor-identifier \(receipt.uniqueVendorIdentifier ?? "(absent)")")
        }
        return verified
    }

    /// Malformed input ends the command with status 2 (and 21002 under `--json`).
    package static func load(_ raw: [UInt8], json: Bool, _ output: inout CommandOutput) throws(ToolFailure) -> TransactionReceipt {
        do throws(TransactionReceiptError) {
            return try TransactionReceipt(raw)
        } catch {
            if json { output.write(ReceiptJSON.failure(.malformed) + "\n") }
            throw ToolFailure(status: .malformed, message: "malformed transaction receipt: \(error)")
        }
    }

    /// The refusal, with the `--at now` hint app receipts give.
    static func message(_ error: TransactionReceiptValidationError, judgedNow: Bool) -> String {
        if judgedNow, case .untrusted(.expired) = error {
            return
                "\(error); Apple's signing certificates expire while their receipts stay valid: --at receipt (the default) judges them at the purchase date"
        }
        return "\(error)"
    }

    /// A short human-readable account of the receipt.
    package static func summary(_ r: TransactionReceipt) -> String {
        var lines = [
            "transaction receipt: version \(r.signature.version.rawValue), environment \(r.environment ?? "Production")",
            "bundle id: \(r.bundleIdentifier)",
            "product id: \(r.productIdentifier)",
            "transaction id: \(r.transactionIdentifier)",
            "purchased: \(ReceiptSummary.iso(r.purchaseDate.milliseconds))",
        ]
        if let original = r.originalTransactionIdentifier { lines.append("original transaction id: \(original)") }
        if let expires = r.expiresDate { lines.append("expires: \(ReceiptSummary.iso(expires.milliseconds))") }
        return lines.joined(separator: "\n")
    }
}
