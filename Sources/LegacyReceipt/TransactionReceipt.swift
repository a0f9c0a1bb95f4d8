import AppReceipt

/// An iOS 6-style transaction receipt (`SKPaymentTransaction.transactionReceipt`): the text of a
/// NeXTSTEP-style dictionary with `signature` and `purchase-info` (both base64), `environment`
/// (`Sandbox`; absent means Production), `pod` and `signing-status`. `purchase-info` decodes to a
/// second dictionary of strings: the transaction.
///
/// Decoding checks the form only; `verify` makes the trust decision.
public struct TransactionReceipt: Sendable {
    /// The outer dictionary, every key kept.
    public let dictionary: StringDictionary
    /// The decoded `signature`.
    public let signature: LegacySignature
    /// The `signature` bytes as decoded from base64: version byte, RSA signature, certificate
    /// length and certificate (`LegacySignature`).
    public let signatureBytes: [UInt8]
    /// The `purchase-info` bytes as decoded from base64: what the signature covers, after the
    /// version byte.
    public let purchaseInfoBytes: [UInt8]
    /// The purchase-info dictionary, every key kept, in its order.
    public let purchaseInfo: StringDictionary

    /// `environment` as written (`Sandbox`), `nil` when absent (Production).
    public let environment: String?
    /// `pod`, the Apple server pool that signed the receipt.
    public let pod: String?
    /// `signing-status`.
    public let signingStatus: String?

    /// `bid`: the app's bundle identifier.
    public let bundleIdentifier: String
    /// `bvrs`: the app's bundle version.
    public let bundleVersion: String?
    /// `product-id`.
    public let productIdentifier: String
    /// `item-id`: the product's App Store item id.
    public let itemIdentifier: String?
    /// `app-item-id`: the app's App Store item id (absent in sandbox).
    public let appItemIdentifier: String?
    /// `transaction-id`.
    public let transactionIdentifier: String
    /// `original-transaction-id`.
    public let originalTransactionIdentifier: String?
    /// `quantity`.
    public let quantity: Int?
    /// `purchase-date-ms`, `purchase-date`, `purchase-date-pst`.
    public let purchaseDate: TransactionDate
    /// `original-purchase-date-ms`, `original-purchase-date`, `original-purchase-date-pst`.
    public let originalPurchaseDate: TransactionDate?
    /// `unique-identifier`: the device's identifier.
    public let uniqueIdentifier: String?
    /// `unique-vendor-identifier`: the app's `identifierForVendor`.
    public let uniqueVendorIdentifier: String?
    /// `version-external-identifier`.
    public let versionExternalIdentifier: String?
    /// `web-order-line-item-id` (auto-renewable subscriptions).
    public let webOrderLineItemIdentifier: String?
    /// `expires-date` (milliseconds), `expires-date-formatted`, `expires-date-formatted-pst`:
    /// present for auto-renewable subscriptions.
    public let expiresDate: TransactionDate?
    /// `is-trial-period` (`true`/`false`).
    public let isTrialPeriod: Bool?
    /// `is-in-intro-offer-period` (`true`/`false`).
    public let isInIntroOfferPeriod: Bool?
    /// Purchase-info entries this type has no property for, in their order.
    public let unknownFields: [StringDictionary.Entry]

    /// The purchase-info keys this type reads.
    public static let knownKeys: Set<String> = [
        "bid", "bvrs", "product-id", "item-id", "app-item-id", "transaction-id", "original-transaction-id", "quantity",
        "purchase-date", "purchase-date-ms", "purchase-date-pst", "original-purchase-date", "original-purchase-date-ms",
        "original-purchase-date-pst", "unique-identifier", "unique-vendor-identifier", "version-external-identifier",
        "web-order-line-item-id", "expires-date", "expires-date-formatted", "expires-date-formatted-pst",
        "is-trial-period", "is-in-intro-offer-period",
    ]

    /// Largest input accepted: the base64 of a text of `StringDictionary.maxTextSize` bytes is
    /// 4/3 of it, and line breaks add a little; twice the text limit covers both forms.
    public static let maxInputSize = 2 * StringDictionary.maxTextSize

    /// Whether the sender meant the receipt for the sandbox (`environment` = `Sandbox`).
    public var isSandbox: Bool { environment == "Sandbox" }

    /// Whether this is an auto-renewable subscription's receipt (it carries `expires-date`).
    public var isAutoRenewable: Bool { expiresDate != nil }

    /// Decodes the receipt text, or its base64 (as clients send it in `receipt-data`; whitespace
    /// ignored).
    public init(_ input: [UInt8]) throws(TransactionReceiptError) {
        guard input.count <= Self.maxInputSize else { throw .inputTooLarge(count: input.count) }
        let text = Self.text(of: input) ?? input
        do {
            dictionary = try StringDictionary(parsing: text)
        } catch {
            throw .dictionary(error)
        }
        signatureBytes = try Self.base64Value("signature", in: dictionary)
        do {
            signature = try LegacySignature(signatureBytes)
        } catch {
            throw .signature(error)
        }
        purchaseInfoBytes = try Self.base64Value("purchase-info", in: dictionary)
        do {
            purchaseInfo = try StringDictionary(parsing: purchaseInfoBytes)
        } catch {
            throw .purchaseInfo(error)
        }
        environment = dictionary["environment"]
        pod = dictionary["pod"]
        signingStatus = dictionary["signing-status"]

        let info = purchaseInfo
        func required(_ key: String) throws(TransactionReceiptError) -> String {
            guard let value = info[key], !value.isEmpty else { throw .missingField(key) }
            return value
        }
        bundleIdentifier = try required("bid")
        productIdentifier = try required("product-id")
        transactionIdentifier = try required("transaction-id")
        bundleVersion = info["bvrs"]
        itemIdentifier = info["item-id"]
        appItemIdentifier = info["app-item-id"]
        originalTransactionIdentifier = info["original-transaction-id"]
        quantity = try info["quantity"].map { (text) throws(TransactionReceiptError) in
            guard let value = Int(text), value >= 0 else { throw .invalidField(key: "quantity", value: text) }
            return value
        }
        _ = try required("purchase-date-ms")
        purchaseDate = try Self.date(info, milliseconds: "purchase-date-ms", gmt: "purchase-date", pacific: "purchase-date-pst")!
        originalPurchaseDate = try Self.date(
            info, milliseconds: "original-purchase-date-ms", gmt: "original-purchase-date",
            pacific: "original-purchase-date-pst")
        expiresDate = try Self.date(
            info, milliseconds: "expires-date", gmt: "expires-date-formatted",
            pacific: "expires-date-formatted-pst")
        uniqueIdentifier = info["unique-identifier"]
        uniqueVendorIdentifier = info["unique-vendor-identifier"]
        versionExternalIdentifier = info["version-external-identifier"]
        webOrderLineItemIdentifier = info["web-order-line-item-id"]
        isTrialPeriod = try Self.flag(info, "is-trial-period")
        isInIntroOfferPeriod = try Self.flag(info, "is-in-intro-offer-period")
        unknownFields = info.entries.filter { !Self.knownKeys.contains($0.key) }
    }

    /// Whether `input` looks like a transaction receipt, as text (first non-whitespace byte `{`)
    /// or as base64 of such text (whose first character is `e`, the base64 of `{`'s high bits).
    /// App receipts (DER, base64 `MII…`) are not mistaken for it, nor a compact JWS, whose dots
    /// are not base64.
    public static func recognises(_ input: [UInt8]) -> Bool {
        guard let first = input.first(where: { !isWhitespace($0) }) else { return false }
        if first == UInt8(ascii: "{") { return true }
        return first == UInt8(ascii: "e") && input.count <= maxInputSize && text(of: input) != nil
    }

    /// The text inside base64 `input` (whitespace ignored), when `input` is base64 of text starting
    /// with `{` after whitespace; `nil` otherwise.
    static func text(of input: [UInt8]) -> [UInt8]? {
        guard input.first(where: { !isWhitespace($0) }) != UInt8(ascii: "{") else { return nil }
        let alphabet = input.filter { !isWhitespace($0) }
        guard !alphabet.isEmpty, let text = Base64Text.decode(alphabet) else { return nil }
        guard text.first(where: { !isWhitespace($0) }) == UInt8(ascii: "{") else { return nil }
        return text
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The bytes of a required base64 value of the outer dictionary (strict: no whitespace).
    static func base64Value(_ key: String, in dictionary: StringDictionary) throws(TransactionReceiptError) -> [UInt8] {
        guard let value = dictionary[key] else { throw .missingKey(key) }
        guard let bytes = Base64Text.decode(Array(value.utf8)) else { throw .invalidBase64(key: key) }
        return bytes
    }

    /// A date given as milliseconds under `milliseconds`, with its text forms, or `nil` when absent.
    static func date(_ info: StringDictionary, milliseconds: String, gmt: String, pacific: String) throws(TransactionReceiptError) -> TransactionDate?
    {
        guard let text = info[milliseconds] else { return nil }
        guard text.count <= 15, text.allSatisfy({ $0.isASCII }), let value = Int64(text), value >= 0 else {
            throw .invalidField(key: milliseconds, value: text)
        }
        return TransactionDate(milliseconds: value, millisecondsText: text, gmt: info[gmt], pacific: info[pacific])
    }

    /// `true` or `false`, or `nil` when absent.
    static func flag(_ info: StringDictionary, _ key: String) throws(TransactionReceiptError) -> Bool? {
        switch info[key] {
        case nil: return nil
        case "true": return true
        case "false": return false
        case let other?: throw .invalidField(key: key, value: other)
        }
    }
}

/// A purchase-info date: the instant, and the strings the receipt gave it.
public struct TransactionDate: Sendable, Hashable {
    /// Milliseconds since 1970.
    public let milliseconds: Int64
    /// The milliseconds as written.
    public let millisecondsText: String
    /// The GMT text as written (`2012-04-30 15:05:55 Etc/GMT`), if present.
    public let gmt: String?
    /// The Los Angeles text as written (`2012-04-30 08:05:55 America/Los_Angeles`), if present.
    public let pacific: String?

    /// Whole seconds since 1970, rounded down: the time certificate validity is judged at.
    public var seconds: Int64 { milliseconds / 1000 }
}

/// Why bytes are not a transaction receipt (malformed input).
public enum TransactionReceiptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input is larger than `TransactionReceipt.maxInputSize`.
    case inputTooLarge(count: Int)
    /// The outer text is not a dictionary of strings.
    case dictionary(StringDictionaryError)
    /// A required outer key (`signature`, `purchase-info`) is absent.
    case missingKey(String)
    /// An outer value that must be base64 is not.
    case invalidBase64(key: String)
    /// The signature blob is malformed.
    case signature(LegacySignatureError)
    /// The decoded purchase-info is not a dictionary of strings.
    case purchaseInfo(StringDictionaryError)
    /// A required purchase-info field (`bid`, `product-id`, `transaction-id`, `purchase-date-ms`)
    /// is absent or empty.
    case missingField(String)
    /// A purchase-info field's value is not of its form (milliseconds, quantity, `true`/`false`).
    case invalidField(key: String, value: String)

    public var description: String {
        switch self {
        case .inputTooLarge(let count): return "input of \(count) bytes exceeds \(TransactionReceipt.maxInputSize)"
        case .dictionary(let error): return "receipt text: \(error)"
        case .missingKey(let key): return "receipt has no \(key)"
        case .invalidBase64(let key): return "\(key) is not base64"
        case .signature(let error): return "signature: \(error)"
        case .purchaseInfo(let error): return "purchase-info: \(error)"
        case .missingField(let key): return "purchase-info has no \(key)"
        case .invalidField(let key, let value): return "purchase-info \(key) has an invalid value \"\(value)\""
        }
    }
}
