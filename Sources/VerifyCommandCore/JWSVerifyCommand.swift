import AppReceipt
import AppStoreJWS
import X509Certificates

/// `receipt verify` for StoreKit 2 signed data (a compact JWS). Exit 0 valid, 1 not valid
/// (untrusted, bad signature, no signing date, unexpected bundle id), 2 malformed.
package enum JWSVerifyCommand {
    /// `verify FILE [--policy appstore|xcode] [--root CERT]... [--bundle-id ID] [--at now|RFC3339] [--json]`.
    static func verify(_ token: [UInt8], _ options: inout Options, _ context: VerifyContext, _ output: inout CommandOutput) throws(ToolFailure) {
        let json = options.flag("--json")
        let policy = try VerifyCommand.policy(
            options.value("--policy") ?? "appstore", roots: options.values("--root"),
            appStore: .appStoreSignedData, xcode: .xcodeSignedData, context)
        let expectation = JWSExpectation(bundleId: try options.value("--bundle-id"))
        let time = try validationTime(options.value("--at"), context)
        for option in ["--app-version", "--device-guid"] where try options.value(option) != nil {
            throw ToolFailure.usage("\(option) applies to receipts, not to signed data (JWS)")
        }
        try options.rejectUnknown()

        let verified: VerifiedJWS
        do throws(JWSError) {
            verified = try JWSVerifier(policy: policy).verify(token, at: time)
            try check(verified.payload, against: expectation)
        } catch {
            // As for receipts: verifyReceipt's failure object on stdout under --json.
            if json { output.write(ReceiptJSON.failure(error.category == .malformed ? .malformed : .notAuthenticated) + "\n") }
            throw failure(error, policy: policy)
        }
        if json {
            output.write(String(decoding: verified.payload, as: UTF8.self) + "\n")
        } else {
            output.write("valid (\(policy.name)): \(VerifyCommand.chainText(verified.chain))\n" + SignedDataSummary.text(verified.payload) + "\n")
        }
    }

    /// `--at now|RFC3339` in whole seconds since 1970; absent (or `receipt`): the payload's own
    /// signing date.
    package static func validationTime(_ text: String?, _ context: VerifyContext) throws(ToolFailure) -> Int64? {
        switch text {
        case nil, "receipt": return nil
        case "now": return AppleDateFormat.floorSeconds(context.nowMilliseconds)
        case let text?:
            guard let milliseconds = RFC3339.milliseconds(text) else {
                throw ToolFailure.usage("--at expects now or an RFC 3339 date, not '\(text)'")
            }
            return AppleDateFormat.floorSeconds(milliseconds)
        }
    }

    /// `--bundle-id` against a transaction, app transaction or notification.
    private static func check(_ payload: [UInt8], against expectation: JWSExpectation) throws(JWSError) {
        guard expectation.bundleId != nil else { return }
        let found: String?
        do throws(JWSPayloadError) {
            switch SignedPayloadKind(payload: payload) {
            case .transaction: found = try JWSTransactionDecodedPayload(payload: payload).bundleId
            case .appTransaction: found = try AppTransaction(payload: payload).bundleId
            case .notification: found = try ResponseBodyV2DecodedPayload(payload: payload).data?.bundleId
            case .renewalInfo, .realtimeRequest, .unknown: found = nil
            }
        } catch {
            throw .payload(error)
        }
        if let bundleId = expectation.bundleId, found != bundleId { throw .unexpectedBundleId(expected: bundleId, found: found) }
    }

    /// The tool's failure for a token's error: malformed (2) or not valid (1), with its refusal line.
    package static func failure(_ error: JWSError, policy: TrustPolicy? = nil) -> ToolFailure {
        ToolFailure(
            status: error.category == .malformed ? .malformed : .verificationFailed,
            message: error.refusalMessage(policy: policy, switches: .receiptTool))
    }
}

/// A short human-readable account of a signed payload: its kind, ids and dates.
package enum SignedDataSummary {
    package static func text(_ payload: [UInt8]) -> String {
        let kind = SignedPayloadKind(payload: payload)
        var lines = Lines(["payload: \(kind.rawValue)"])
        switch kind {
        case .transaction:
            guard let t = try? JWSTransactionDecodedPayload(payload: payload) else { break }
            lines.add("environment", t.environment); lines.add("bundle id", t.bundleId); lines.add("product id", t.productId)
            lines.add("type", t.type); lines.add("transaction id", t.transactionId); lines.add("original transaction id", t.originalTransactionId)
            lines.add("purchased", t.purchaseDate); lines.add("expires", t.expiresDate); lines.add("revoked", t.revocationDate)
            lines.add("signed", t.signedDate)
        case .renewalInfo:
            guard let r = try? JWSRenewalInfoDecodedPayload(payload: payload) else { break }
            lines.add("environment", r.environment); lines.add("product id", r.productId); lines.add("auto-renew product id", r.autoRenewProductId)
            lines.add("auto-renew status", r.autoRenewStatus); lines.add("original transaction id", r.originalTransactionId)
            lines.add("renews", r.renewalDate); lines.add("signed", r.signedDate)
        case .notification:
            guard let n = try? ResponseBodyV2DecodedPayload(payload: payload) else { break }
            lines.add("type", [n.notificationType, n.subtype].compactMap { $0 }.joined(separator: " / "))
            lines.add("notification uuid", n.notificationUUID); lines.add("environment", n.data?.environment)
            lines.add("bundle id", n.data?.bundleId); lines.add("signed", n.signedDate)
        case .appTransaction:
            guard let a = try? AppTransaction(payload: payload) else { break }
            lines.add("environment", a.receiptType); lines.add("bundle id", a.bundleId); lines.add("app version", a.applicationVersion)
            lines.add("original app version", a.originalApplicationVersion); lines.add("created", a.receiptCreationDate)
        case .realtimeRequest:
            guard let q = try? DecodedRealtimeRequestBody(payload: payload) else { break }
            lines.add("environment", q.environment); lines.add("app apple id", q.appAppleId); lines.add("product id", q.productId)
            lines.add("original transaction id", q.originalTransactionId); lines.add("locale", q.userLocale)
            lines.add("request id", q.requestIdentifier); lines.add("signed", q.signedDate)
        case .unknown:
            break
        }
        return lines.lines.joined(separator: "\n")
    }

    /// `label: value` lines, a line only for a value present; times as RFC 3339 in UTC.
    struct Lines {
        var lines: [String]

        init(_ lines: [String]) { self.lines = lines }

        mutating func add(_ label: String, _ value: String?) {
            if let value { lines.append("\(label): \(value)") }
        }

        mutating func add(_ label: String, _ value: Int64?) {
            if let value { lines.append("\(label): \(value)") }
        }

        mutating func add(_ label: String, _ value: UnixMilliseconds?) {
            if let value { lines.append("\(label): \(ReceiptSummary.iso(value.value))") }
        }
    }
}
