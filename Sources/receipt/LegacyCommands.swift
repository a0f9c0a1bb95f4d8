import AppReceipt
import Foundation
import LegacyReceipt
import X509Certificates

/// `receipt verify|decode` for iOS 6-style transaction receipts (the dictionary text, or its
/// base64). Exit 0 valid or decoded, 1 not valid (not authentic, expired, wrong bundle id, app
/// version or device), 2 malformed, 64 usage, as for app receipts.
enum LegacyCommands {
    /// `verify FILE [--policy appstore|xcode] [--root CERT]... [--bundle-id ID] [--app-version V]
    /// [--device-guid HEX] [--at now|receipt|RFC3339] [--json]`. `--at receipt` (the default) is
    /// the purchase date, `purchase-date-ms`; `--app-version` is compared with `bvrs`,
    /// `--device-guid` with `unique-vendor-identifier` (`identifierForVendor`); `--policy xcode`
    /// trusts no transaction receipt (Xcode never made them).
    static func verify(_ raw: [UInt8], _ options: inout Options) throws {
        let json = options.flag("--json")
        let policyName = try options.value("--policy") ?? "appstore"
        guard policyName == "appstore" || policyName == "xcode" else {
            throw ToolFailure.usage("unknown policy '\(policyName)' (appstore or xcode)")
        }
        var policy = LegacyTrustPolicy.appStore
        let roots = options.values("--root")
        if !roots.isEmpty {
            let anchors = try VerifyCommand.policy("appstore", roots: roots).anchors
            policy = .appStore(anchors: anchors)
        }
        let bundle = try options.value("--bundle-id")
        let version = try options.value("--app-version")
        let device = try options.value("--device-guid").map(VerifyCommand.deviceIdentifier)
        let at = try options.value("--at")
        let time = try JWSCommands.validationTime(at).map { Date(timeIntervalSince1970: TimeInterval($0)) }
        try options.rejectUnknown()

        let receipt = try load(raw, json: json)
        do {
            guard policyName == "appstore" else {
                throw Refusal("transaction receipts are signed by the App Store only: the xcode policy trusts none of them")
            }
            let verified: VerifiedTransactionReceipt
            do {
                verified = try receipt.verify(policy: policy, at: time)
            } catch {
                throw Refusal(message(error, judgedNow: at == "now"))
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
            if json {
                Output.write(TransactionReceiptJSON.response(receipt) + "\n")
            } else {
                let chain = verified.chain.map(\.subjectDescription).joined(separator: " <- ")
                Output.write("valid (\(policy.name)): \(chain)\n" + summary(receipt) + "\n")
            }
        } catch let refusal as Refusal {
            if json { Output.write(ReceiptJSON.failure(.notAuthenticated) + "\n") }
            throw ToolFailure(status: .verificationFailed, message: "not valid: " + refusal.reason)
        }
    }

    /// Why a decodable receipt is not valid (exit 1).
    struct Refusal: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// `decode FILE [--json]`: parse only, no trust decision.
    static func decode(_ raw: [UInt8], json: Bool) throws {
        let receipt = try load(raw, json: json)
        // Nothing was verified: the receipt without verifyReceipt's `status`.
        Output.write((json ? #"{"receipt":"# + TransactionReceiptJSON.receiptObject(receipt) + "}" : "not verified\n" + summary(receipt)) + "\n")
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

    /// The refusal, with the `--at now` hint app receipts give.
    static func message(_ error: TransactionReceiptValidationError, judgedNow: Bool) -> String {
        if judgedNow, case .untrusted(.expired) = error {
            return
                "\(error); Apple's signing certificates expire while their receipts stay valid: --at receipt (the default) judges them at the purchase date"
        }
        return "\(error)"
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
