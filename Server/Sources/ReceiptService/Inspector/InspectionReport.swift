import AppReceipt
import Foundation
import X509Certificates

/// What the inspector page shows, as one JSON object (keys in snake case):
/// `kind` (`receipt`/`transaction-receipt`/`jws`), `verdict` (`valid`/`not valid`/`malformed`), `status` (0, 21002,
/// 21003 as `verifyReceipt`), `message` (the `receipt` tool's line), `rule` and
/// `failed_certificate` for a refusal, `policy`, `validation_time` (and `validation_time_ms`), `chain_verified` and
/// `chain` (each certificate's role, subject, issuer, validity also in milliseconds, SHA-256, whether it was valid at the
/// validation time and whether the refusal names it), `fields` (rows of name and value, or of
/// name, UTC and Los Angeles time and milliseconds for dates), `purchases` (the `in_app` objects, the first
/// `maxPurchases` only), `purchases_total` and `purchases_omitted` (how many were left out), `raw` (the
/// tool's `--json` output; absent when purchases were omitted), and for receipts `receipt_data` (up
/// to `maxEchoedReceiptSize`) and `endpoint` for the curl line.
///
/// At a glance, judged at the time of the request: `summary` (counts and one line of text),
/// `subscriptions` (periods and gaps for the timelines) and `purchase_badges` (per listed purchase),
/// see `InspectionSummary`; for a token that is a transaction its `badges`; for a notification
/// `nested`, the tokens inside its `data` decoded (not verified on their own).
struct InspectionReport {
    let kind: String
    /// When the report is made, in milliseconds since 1970: "active" is judged then.
    let now: Int64
    var verdict = "valid"
    var status = 0
    var message = ""
    var rule: InspectionRule?
    var policy: String?
    var validationTime: Int64?
    var chainVerified = false
    var chain: [Certificate] = []
    var fieldRows: [[String: String]] = []
    /// The listed purchases' `in_app` objects as JSON text (see `purchases(_:total:)`).
    var purchaseObjects: [String] = []
    var purchasesTotal = 0
    var raw: String?
    var receiptData: String?
    var endpoint: String?
    var payloadKind: String?
    var summary: InspectionSummary?
    /// A transaction token's badges.
    var tokenBadges: [String]?
    var nested: [InspectionNestedToken] = []

    init(kind: String, now: Int64) {
        self.kind = kind
        self.now = now
    }

    mutating func accept(chain: [Certificate], message: String) {
        certificates(chain, verified: true)
        self.message = message
    }

    mutating func refuse(status: Int, verdict: String, message: String, rule: InspectionRule) {
        self.status = status
        self.verdict = verdict
        self.message = message
        self.rule = rule
    }

    mutating func certificates(_ certificates: [Certificate], verified: Bool) {
        chain = certificates
        chainVerified = verified
    }

    /// The first purchases' `in_app` objects as `ReceiptJSON` writes them (JSON text, spliced
    /// into the report as it is: parsing and re-encoding hundreds of them with Foundation would
    /// cost most of a large report), of `total` in the receipt.
    mutating func purchases(_ objects: [String], total: Int) {
        purchaseObjects = objects
        purchasesTotal = total
    }

    /// Rows from `receipt verify --json`'s `receipt` object (see `InspectionFields`).
    mutating func fields(receiptObject: String) {
        fieldRows = InspectionFields.rows(receiptObject: receiptObject)
    }

    /// Rows from a signed payload's members, the tokens inside its objects decoded as `nested`,
    /// and the summary and badges of the transactions among them.
    mutating func fields(payload: [UInt8]) {
        guard let object = InspectionFields.object(Data(payload)) else { return }
        nested = InspectionFields.tokens(in: object).prefix(Self.maxNestedTokens).compactMap {
            InspectionNestedToken(path: $0.path, name: $0.name, token: $0.token)
        }
        fieldRows = InspectionFields.rows(payload: object, decoded: Set(nested.map(\.path)))
        let transaction = InspectionPurchase(transaction: object)
        tokenBadges = transaction.map { InspectionSummary.badges($0, upgraded: $0.upgraded, now: now) }
        let signed = ([transaction] + nested.map(\.purchase)).compactMap { $0 }
        if !signed.isEmpty { summarize(signed) }
    }

    /// The summary of `purchases` (all of a receipt's, not only the listed ones) at `now`.
    mutating func summarize(_ purchases: [InspectionPurchase]) {
        summary = InspectionSummary(purchases, now: now)
    }

    /// Purchases the report lists at most: a page with tens of thousands of table rows would stall
    /// the browser, and the JSON would be as large. `purchases_omitted` says how many were left out.
    static let maxPurchases = 500

    /// Tokens inside a payload the report decodes at most (a notification has two).
    static let maxNestedTokens = 8

    /// Largest receipt whose base64 the report echoes for the curl line (`receipt_data`): a
    /// genuine receipt with a few hundred purchases takes tens of kilobytes; a curl line of
    /// megabytes is no use on a page, and echoing it would cost as much as the rest of the report.
    static let maxEchoedReceiptSize = 256 * 1024

    /// The order `ReceiptJSON` writes a receipt's fields in.
    static let receiptFieldOrder = [
        "receipt_type", "adam_id", "app_item_id", "bundle_id", "application_version", "download_id",
        "version_external_identifier", "receipt_creation_date", "original_purchase_date", "original_application_version",
        "expiration_date",
    ]

    /// One row of the certificate table.
    func row(_ certificate: Certificate, index: Int) -> [String: Any] {
        let fingerprint = certificate.fingerprint
        var row: [String: Any] = [
            "role": !chainVerified ? "carried" : index == 0 ? "signer" : index == chain.count - 1 ? "anchor" : "intermediate",
            "subject": certificate.subjectDescription,
            "issuer": certificate.issuerDescription,
            "not_before": Self.utc(certificate.notBefore),
            "not_after": Self.utc(certificate.notAfter),
            "not_before_ms": certificate.notBefore * 1000,
            "not_after_ms": certificate.notAfter * 1000,
            "sha256": Self.colonHex(fingerprint.description),
            // Names compared as the page shows them, roots by SHA-256.
            "failed": rule.map { $0.subject?.description == certificate.subjectDescription || $0.root?.fingerprint == fingerprint } ?? false,
        ]
        if let validationTime { row["valid_at_validation_time"] = certificate.isValid(at: validationTime) }
        return row
    }

    var json: String {
        var object: [String: Any] = [
            "kind": kind, "verdict": verdict, "status": status, "message": message, "chain_verified": chainVerified,
            "chain": chain.enumerated().map { row($1, index: $0) }, "fields": fieldRows,
            "purchases_total": purchasesTotal, "purchases_omitted": purchasesTotal - purchaseObjects.count,
        ]
        if let rule {
            object["rule"] = rule.rule
            let root = rule.root?.fingerprint
            if let subject = rule.subject?.description ?? chain.first(where: { $0.fingerprint == root })?.subjectDescription {
                object["failed_certificate"] = subject
            }
        }
        object["policy"] = policy
        object["validation_time"] = validationTime.map(Self.utc)
        object["validation_time_ms"] = validationTime.map { $0 * 1000 }
        object["raw"] = raw
        object["receipt_data"] = receiptData
        object["endpoint"] = endpoint
        object["payload_kind"] = payloadKind
        if let summary {
            object["summary"] = summary.object
            object["subscriptions"] = summary.timelines(maxPeriods: Self.maxPurchases)
            if kind != "jws" { object["purchase_badges"] = Array(summary.badges.prefix(purchaseObjects.count)) }
        }
        object["badges"] = tokenBadges
        if !nested.isEmpty { object["nested"] = nested.map { $0.object(now: now) } }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return #"{"kind":"\#(kind)","verdict":"malformed","status":21002,"message":"unprintable report"}"#
        }
        let text = String(decoding: data, as: UTF8.self)
        // The object's first member, before the sorted rest: `{"purchases":[…],` + `"chain":…}`.
        return #"{"purchases":["# + purchaseObjects.joined(separator: ",") + "]," + text.dropFirst()
    }

    static func utc(_ seconds: Int64) -> String {
        AppleDateFormat.gmt(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// `ab12…` → `AB:12:…`, as certificate tools print fingerprints.
    static func colonHex(_ hex: String) -> String {
        var groups: [Substring] = []
        var rest = Substring(hex.uppercased())
        while !rest.isEmpty {
            groups.append(rest.prefix(2))
            rest = rest.dropFirst(2)
        }
        return groups.joined(separator: ":")
    }
}
