import AppReceipt
import AppStoreJWS
import Foundation
import LegacyReceipt
import X509Certificates

/// The inspector page's work (`POST /inspect`): reads a receipt (binary or base64) or a StoreKit 2
/// token (alone or in the `{"signedPayload": …}` body Apple posts), verifies it as the server would, and describes the outcome for a person: verdict, the
/// rule and certificate a refusal names (in the `receipt` tool's words), the certificates with
/// subjects, validity and SHA-256, the fields and purchases, and the raw JSON. Stores nothing.
public struct Inspector: Sendable {
    /// The receipts' App Store rules (Apple Root CA, or `--root`).
    let receiptPolicy: TrustPolicy
    /// The transaction receipts' App Store rules: the same anchors, the embedded intermediates
    /// or `--legacy-intermediate`.
    let legacyPolicy: LegacyTrustPolicy
    /// StoreKit 2 tokens' App Store rules: Apple Root CA - G3, or `--root-g3`, as for
    /// notifications and posted transactions.
    let tokenPolicy: TrustPolicy
    /// Xcode StoreKit-testing data is verified under Xcode's policy (`--allow-xcode`).
    let allowXcode: Bool

    /// Receipts under the App Store policy with `roots` (nil: Apple's root), tokens under the App
    /// Store signed-data policy with `tokenAnchors` (nil: Apple Root CA - G3); Xcode data under
    /// Xcode's policies when `allowXcode`.
    public init(roots: [TrustAnchor]?, legacyIntermediates: [Certificate]? = nil, tokenAnchors: [TrustAnchor]? = nil, allowXcode: Bool) {
        (receiptPolicy, legacyPolicy) = ReceiptVerifier.policies(roots: roots, legacyIntermediates: legacyIntermediates)
        tokenPolicy = tokenAnchors.map { TrustPolicy.appStoreSignedData(anchors: $0) } ?? .appStoreSignedData
        self.allowXcode = allowXcode
    }

    /// The report for `raw` (the bytes of a file or of pasted text) as a JSON object; purchases
    /// are judged active or expired at `now`.
    public func inspect(_ raw: [UInt8], now: Date = Date()) -> String {
        let milliseconds = now.millisecondsSince1970
        let report =
            (CompactJWS.token(in: raw) ?? Self.signedPayload(in: raw)).map { inspectToken($0, now: milliseconds) }
            ?? inspectReceipt(ReceiptInput.decode(raw), now: milliseconds)
        return report.json
    }

    /// The token in a body as Apple posts one, `{"signedPayload": "eyJ…"}` (a notification's or a
    /// Retention Messaging real-time request's); nil for anything else.
    static func signedPayload(in raw: [UInt8]) -> [UInt8]? {
        guard raw.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == UInt8(ascii: "{"),
            let token = (try? RealtimeRequestBody(body: raw))?.signedPayload
        else { return nil }
        return CompactJWS.token(in: Array(token.utf8))
    }

    func inspectReceipt(_ bytes: [UInt8], now: Int64) -> InspectionReport {
        if TransactionReceipt.recognises(bytes) { return inspectTransactionReceipt(bytes, now: now) }
        var report = InspectionReport(kind: "receipt", now: now)
        let receipt: AppReceipt
        do {
            receipt = try AppReceipt(bytes)
        } catch {
            let message = ReceiptInput.notAReceipt(bytes).map { "not a receipt: \($0)" } ?? "malformed receipt: \(error)"
            report.refuse(status: 21002, verdict: "malformed", message: message, rule: InspectionRule(rule: "malformed"))
            return report
        }
        let policy = allowXcode && receipt.environment == .xcode ? TrustPolicy.xcodeTesting : receiptPolicy
        let time = Int64(receipt.creationDate.timeIntervalSince1970.rounded(.down))
        report.policy = policy.name
        report.validationTime = time
        // Work bounded by what the page shows: the first `maxPurchases` purchases; the tool's
        // whole JSON and the curl line's base64 only for receipts small enough to read there.
        report.fields(receiptObject: ReceiptJSON.receiptObject(receipt, maxPurchases: 0))
        report.purchases(
            receipt.inAppPurchases.prefix(InspectionReport.maxPurchases).map(ReceiptJSON.purchaseObject),
            total: receipt.inAppPurchases.count)
        report.summarize(receipt.inAppPurchases.map(InspectionPurchase.init))
        if receipt.inAppPurchases.count <= InspectionReport.maxPurchases { report.raw = ReceiptJSON.response(receipt) }
        if bytes.count <= InspectionReport.maxEchoedReceiptSize { report.receiptData = Data(bytes).base64EncodedString() }
        report.endpoint = receipt.environment.verifyReceiptName == "Production" ? "/verifyReceipt" : "/sandbox/verifyReceipt"
        do {
            let verified = try receipt.validate(policy: policy, at: .receiptCreation)
            report.accept(chain: verified.chain, message: "valid (\(policy.name)): " + Self.path(verified.chain))
        } catch {
            report.certificates(receipt.signedData.certificates, verified: false)
            report.refuse(
                status: 21003, verdict: "not valid",
                message: RefusalHint.message(error, time: .receiptCreation, policy: policy, switches: .receiptServer),
                rule: InspectionRule(error))
            report.raw = ReceiptJSON.failure(.notAuthenticated)
        }
        return report
    }

    func inspectToken(_ token: [UInt8], now: Int64) -> InspectionReport {
        var report = InspectionReport(kind: "jws", now: now)
        let jws: CompactJWS
        do {
            jws = try CompactJWS(token)
        } catch {
            report.refuse(
                status: 21002, verdict: "malformed", message: error.refusalMessage(policy: nil, switches: .receiptServerTokens),
                rule: InspectionRule(error))
            return report
        }
        let x5c = jws.header.certificateChain ?? []
        let xcode = x5c.first.flatMap { SignerOrigin.recognize(signer: $0, among: x5c) } == .xcodeTesting
        let policy = allowXcode && xcode ? TrustPolicy.xcodeSignedData : tokenPolicy
        report.policy = policy.name
        report.payloadKind = SignedPayloadKind(payload: jws.payload).rawValue
        report.fields(payload: jws.payload)
        report.raw = String(decoding: jws.payload, as: UTF8.self)
        do {
            let verified = try JWSVerifier(policy: policy).verify(jws)
            report.validationTime = verified.validationTime
            report.accept(chain: verified.chain, message: "valid (\(policy.name)): " + Self.path(verified.chain))
        } catch {
            report.certificates(x5c, verified: false)
            report.refuse(
                status: error.category == .malformed ? 21002 : 21003, verdict: error.category == .malformed ? "malformed" : "not valid",
                message: error.refusalMessage(policy: policy, switches: .receiptServerTokens), rule: InspectionRule(error))
        }
        return report
    }

    /// `subject <- subject <- …`, as `receipt verify` prints a valid chain.
    static func path(_ chain: [Certificate]) -> String {
        chain.map(\.subjectDescription).joined(separator: " <- ")
    }
}
