import AppReceipt
import AppStoreJWS
import Foundation
import X509Certificates

/// `receipt verify|decode` for StoreKit 2 signed data (a compact JWS). Exit 0 valid or decoded,
/// 1 not valid (untrusted, bad signature, no signing date, unexpected bundle id), 2 malformed.
enum JWSCommands {
    /// `verify FILE [--policy appstore|xcode] [--root CERT]... [--bundle-id ID] [--at now|RFC3339] [--json]`.
    static func verify(_ token: [UInt8], _ options: inout Options) throws {
        let json = options.flag("--json")
        let policy = try VerifyCommand.policy(
            options.value("--policy") ?? "appstore", roots: options.values("--root"),
            appStore: .appStoreSignedData, xcode: .xcodeSignedData)
        let expectation = JWSExpectation(bundleId: try options.value("--bundle-id"))
        let time = try validationTime(options.value("--at"))
        for option in ["--app-version", "--device-guid"] where try options.value(option) != nil {
            throw ToolFailure.usage("\(option) applies to receipts, not to signed data (JWS)")
        }
        try options.rejectUnknown()

        let verified: VerifiedJWS
        do {
            verified = try JWSVerifier(policy: policy).verify(token, at: time)
            try check(verified.payload, against: expectation)
        } catch {
            // As for receipts: verifyReceipt's failure object on stdout under --json.
            if json { Output.write(ReceiptJSON.failure(error.category == .malformed ? .malformed : .notAuthenticated) + "\n") }
            throw failure(error, policy: policy)
        }
        if json {
            Output.write(String(decoding: verified.payload, as: UTF8.self) + "\n")
        } else {
            let chain = verified.chain.map(\.subjectDescription).joined(separator: " <- ")
            Output.write("valid (\(policy.name)): \(chain)\n" + SignedDataSummary.text(verified.payload) + "\n")
        }
    }

    /// `decode FILE [--json]`: the token taken apart, no trust decision.
    static func decode(_ token: [UInt8], json: Bool) throws {
        let jws: CompactJWS
        do {
            jws = try CompactJWS(token)
        } catch {
            throw failure(error)
        }
        if json {
            Output.write(String(decoding: jws.payload, as: UTF8.self) + "\n")
        } else {
            let chain = (jws.header.certificateChain ?? []).map(\.subjectDescription).joined(separator: " <- ")
            Output.write(
                "not verified: alg \(jws.header.algorithm ?? "absent"), x5c \(chain.isEmpty ? "absent" : chain)\n"
                    + SignedDataSummary.text(jws.payload) + "\n")
        }
    }

    /// `--at now|RFC3339`; absent (or `receipt`): the payload's own signing date.
    static func validationTime(_ text: String?) throws -> Int64? {
        switch text {
        case nil, "receipt": return nil
        case "now": return Int64(Date().timeIntervalSince1970.rounded(.down))
        case let text?:
            guard let date = Date(rfc3339: text) else {
                throw ToolFailure.usage("--at expects now or an RFC 3339 date, not '\(text)'")
            }
            return Int64(date.timeIntervalSince1970.rounded(.down))
        }
    }

    /// `--bundle-id` against a transaction, app transaction or notification.
    private static func check(_ payload: [UInt8], against expectation: JWSExpectation) throws(JWSError) {
        guard expectation.bundleId != nil else { return }
        let found: String?
        do {
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

    private static func failure(_ error: JWSError, policy: TrustPolicy? = nil) -> ToolFailure {
        ToolFailure(status: error.category == .malformed ? .malformed : .verificationFailed, message: error.refusalMessage(policy: policy))
    }
}

/// A short human-readable account of a signed payload: its kind, ids and dates.
enum SignedDataSummary {
    static func text(_ payload: [UInt8]) -> String {
        let kind = SignedPayloadKind(payload: payload)
        var lines = ["payload: \(kind.rawValue)"]
        func add(_ label: String, _ value: Any?) {
            guard let value else { return }
            if let time = value as? UnixMilliseconds {
                lines.append("\(label): \(Summary.iso(time.date))")
            } else {
                lines.append("\(label): \(value)")
            }
        }
        switch kind {
        case .transaction:
            guard let t = try? JWSTransactionDecodedPayload(payload: payload) else { break }
            add("environment", t.environment); add("bundle id", t.bundleId); add("product id", t.productId)
            add("type", t.type); add("transaction id", t.transactionId); add("original transaction id", t.originalTransactionId)
            add("purchased", t.purchaseDate); add("expires", t.expiresDate); add("revoked", t.revocationDate); add("signed", t.signedDate)
        case .renewalInfo:
            guard let r = try? JWSRenewalInfoDecodedPayload(payload: payload) else { break }
            add("environment", r.environment); add("product id", r.productId); add("auto-renew product id", r.autoRenewProductId)
            add("auto-renew status", r.autoRenewStatus); add("original transaction id", r.originalTransactionId)
            add("renews", r.renewalDate); add("signed", r.signedDate)
        case .notification:
            guard let n = try? ResponseBodyV2DecodedPayload(payload: payload) else { break }
            add("type", [n.notificationType, n.subtype].compactMap { $0 }.joined(separator: " / "))
            add("notification uuid", n.notificationUUID); add("environment", n.data?.environment)
            add("bundle id", n.data?.bundleId); add("signed", n.signedDate)
        case .appTransaction:
            guard let a = try? AppTransaction(payload: payload) else { break }
            add("environment", a.receiptType); add("bundle id", a.bundleId); add("app version", a.applicationVersion)
            add("original app version", a.originalApplicationVersion); add("created", a.receiptCreationDate)
        case .realtimeRequest:
            guard let q = try? DecodedRealtimeRequestBody(payload: payload) else { break }
            add("environment", q.environment); add("app apple id", q.appAppleId); add("product id", q.productId)
            add("original transaction id", q.originalTransactionId); add("locale", q.userLocale)
            add("request id", q.requestIdentifier); add("signed", q.signedDate)
        case .unknown:
            break
        }
        return lines.joined(separator: "\n")
    }
}
