import AppReceipt
import Foundation
import X509Certificates

/// What the inspector page shows, as one JSON object (keys in snake case):
/// `kind` (`receipt`/`transaction-receipt`/`jws`), `verdict` (`valid`/`not valid`/`malformed`), `status` (0, 21002,
/// 21003 as `verifyReceipt`), `message` (the `receipt` tool's line), `rule` and
/// `failed_certificate` for a refusal, `policy`, `validation_time`, `chain_verified` and `chain`
/// (each certificate's role, subject, issuer, validity, SHA-256, whether it was valid at the
/// validation time and whether the refusal names it), `fields` (rows of name and value, or of
/// name, UTC and Los Angeles time for dates), `purchases` (the `in_app` objects, the first
/// `maxPurchases` only), `purchases_total` and `purchases_omitted` (how many were left out), `raw` (the
/// tool's `--json` output; absent when purchases were omitted), and for receipts `receipt_data` (up
/// to `maxEchoedReceiptSize`) and `endpoint` for the curl line.
struct InspectionReport {
    let kind: String
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

    init(kind: String) {
        self.kind = kind
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

    /// Rows from `receipt verify --json`'s `receipt` object: each field once, dates as UTC and
    /// Los Angeles time (its `in_app` is left to `purchases(_:total:)`).
    mutating func fields(receiptObject: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(receiptObject.utf8)) as? [String: Any] else { return }
        let known = Self.receiptFieldOrder.filter { object[$0] != nil }
        let others = object.keys.filter { key in
            !known.contains(key) && key != "in_app" && !key.hasSuffix("_ms") && !key.hasSuffix("_pst")
        }.sorted()
        for name in known + others {
            if let pacific = object[name + "_pst"] as? String {
                fieldRows.append(["name": name, "utc": "\(object[name] ?? "")", "los_angeles": pacific])
            } else {
                fieldRows.append(["name": name, "value": "\(object[name] ?? "")"])
            }
        }
    }

    /// Rows from a signed payload's members: dates (members ending in `Date`, milliseconds) as UTC
    /// and Los Angeles time, objects and arrays as compact JSON.
    mutating func fields(payload: [UInt8]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else { return }
        for name in object.keys.sorted() {
            let value = object[name]!
            if name.hasSuffix("Date"), let number = value as? NSNumber, let milliseconds = Int64(exactly: number.doubleValue) {
                let date = Date(millisecondsSince1970: milliseconds)
                fieldRows.append(["name": name, "utc": AppleDateFormat.gmt(date), "los_angeles": AppleDateFormat.pacific(date)])
            } else if JSONSerialization.isValidJSONObject(value),
                      let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]) {
                fieldRows.append(["name": name, "value": String(decoding: data, as: UTF8.self)])
            } else {
                fieldRows.append(["name": name, "value": "\(value)"])
            }
        }
    }

    /// Purchases the report lists at most: a page with tens of thousands of table rows would stall
    /// the browser, and the JSON would be as large. `purchases_omitted` says how many were left out.
    static let maxPurchases = 500

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
        let fingerprint = certificate.fingerprint.description
        var row: [String: Any] = [
            "role": !chainVerified ? "carried" : index == 0 ? "signer" : index == chain.count - 1 ? "anchor" : "intermediate",
            "subject": certificate.subjectDescription,
            "issuer": certificate.issuerDescription,
            "not_before": Self.utc(certificate.notBefore),
            "not_after": Self.utc(certificate.notAfter),
            "sha256": Self.colonHex(fingerprint),
            "failed": rule.map { $0.subject == certificate.subjectDescription || $0.fingerprint == fingerprint } ?? false,
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
            if let subject = rule.subject ?? chain.first(where: { $0.fingerprint.description == rule.fingerprint })?.subjectDescription {
                object["failed_certificate"] = subject
            }
        }
        object["policy"] = policy
        object["validation_time"] = validationTime.map(Self.utc)
        object["raw"] = raw
        object["receipt_data"] = receiptData
        object["endpoint"] = endpoint
        object["payload_kind"] = payloadKind
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
