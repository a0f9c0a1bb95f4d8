import AppReceipt
import Foundation
import LegacyReceipt
import PKCS7
import X509Certificates

/// `receipt verify FILE [--policy appstore|xcode] [--root CERT]... [--bundle-id ID]
/// [--app-version V] [--device-guid HEX] [--at now|receipt|RFC3339] [--json]`.
/// Exit 0 valid, 1 not valid, 2 malformed, 64 usage; one stderr line names the failed rule.
enum VerifyCommand {
    static func run(_ options: inout Options) throws {
        let path = try options.file()
        let raw = try Input.readRaw(path)
        if let token = Input.compactJWS(raw) { return try JWSCommands.verify(token, &options) }
        if TransactionReceipt.recognises(raw) { return try LegacyCommands.verify(raw, &options) }
        let json = options.flag("--json")
        let policy = try self.policy(options.value("--policy") ?? "appstore", roots: options.values("--root"))
        let bundle = try options.value("--bundle-id")
        let version = try options.value("--app-version")
        let device = try options.value("--device-guid").map(deviceIdentifier)
        let time = try validationTime(options.value("--at") ?? "receipt")
        try options.rejectUnknown()

        let receipt = try ReceiptLoader.load(raw, json: json)
        do {
            let verified = try receipt.validate(
                policy: policy, bundleIdentifier: bundle, appVersion: version,
                deviceIdentifier: device, at: time)
            if json {
                Output.write(ReceiptJSON.response(receipt) + "\n")
            } else {
                let chain = verified.chain.map(\.subjectDescription).joined(separator: " <- ")
                Output.write("valid (\(policy.name)): \(chain)\n" + Summary.text(receipt) + "\n")
            }
        } catch {
            // Embedded certificates are parsed (and a malformed one refused, exit 2) by decoding.
            if json { Output.write(ReceiptJSON.failure(.notAuthenticated) + "\n") }
            throw ToolFailure(status: .verificationFailed, message: RefusalHint.message(error, time: time, policy: policy))
        }
    }

    /// The named policy, with its anchors replaced by `--root` certificates when given.
    static func policy(_ name: String, roots: [String]) throws -> TrustPolicy {
        try policy(name, roots: roots, appStore: .appStore, xcode: .xcodeTesting)
    }

    /// `--policy` chooses between the two given policies; `--root` replaces the chosen one's anchors.
    static func policy(_ name: String, roots: [String], appStore: TrustPolicy, xcode: TrustPolicy) throws -> TrustPolicy {
        var policy: TrustPolicy
        switch name {
        case "appstore": policy = appStore
        case "xcode": policy = xcode
        default: throw ToolFailure.usage("unknown policy '\(name)' (appstore or xcode)")
        }
        if !roots.isEmpty {
            policy.anchors = try roots.map { path in
                do {
                    return try TrustAnchor(derEncoded: Input.read(path))
                } catch let error as CertificateError {
                    throw ToolFailure.usage("--root \(path): not a certificate (\(error))")
                }
            }
        }
        return policy
    }

    /// `now`, `receipt`, or an RFC 3339 date.
    static func validationTime(_ text: String) throws -> ValidationTime {
        switch text {
        case "now": return .now
        case "receipt": return .receiptCreation
        default:
            guard let date = Date(rfc3339: text) else {
                throw ToolFailure.usage("--at expects now, receipt or an RFC 3339 date, not '\(text)'")
            }
            return .date(date)
        }
    }

    /// Hex digits (dashes and colons allowed, as in a UUID or MAC address) to bytes.
    static func deviceIdentifier(_ text: String) throws -> [UInt8] {
        let digits = text.filter { $0 != "-" && $0 != ":" }
        guard !digits.isEmpty, digits.count % 2 == 0, digits.allSatisfy(\.isHexDigit) else {
            throw ToolFailure.usage("--device-guid expects hex digits, not '\(text)'")
        }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            bytes.append(UInt8(digits[index ..< next], radix: 16)!)
            index = next
        }
        return bytes
    }
}
