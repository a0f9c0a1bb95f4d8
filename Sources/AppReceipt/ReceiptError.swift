import DER
import PKCS7
import X509Certificates

/// Why bytes could not be decoded as an App Store receipt (malformed input). Each case carries
/// the byte offset of the element at fault where there is one.
public enum ReceiptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input is larger than `ReceiptLimits.maxInputSize`.
    case inputTooLarge(count: Int)
    /// The PKCS#7 envelope is malformed.
    case envelope(PKCS7Error)
    /// The payload (the signed content) is not a well-formed SET OF ReceiptAttribute.
    case payload(ASN1Error)
    /// A documented attribute's value is not of its type (e.g. bundle id not a UTF8String).
    case invalidAttribute(type: Int, offset: Int)
    /// A single-valued attribute appears twice, which would make validation ambiguous.
    case duplicateAttribute(type: Int, offset: Int)
    /// A required attribute is absent or empty (2 bundle id, 3 app version, 4 opaque value,
    /// 5 SHA-1 hash, 12 creation date; in-app 1702 product id, 1703 transaction id, 1704
    /// purchase date). `offset` is that of the SET that lacks it.
    case missingAttribute(type: Int, offset: Int)
    /// More attributes or in-app purchases than `ReceiptLimits` allow.
    case tooManyElements(offset: Int)

    public var description: String {
        switch self {
        case .inputTooLarge(let count): return "input of \(count) bytes exceeds \(ReceiptLimits.maxInputSize)"
        case .envelope(let error): return error.description
        case .payload(let error): return "payload: \(error)"
        case .invalidAttribute(let type, let offset): return "offset \(offset): attribute \(type) has an invalid value"
        case .duplicateAttribute(let type, let offset): return "offset \(offset): attribute \(type) appears twice"
        case .missingAttribute(let type, let offset): return "offset \(offset): required attribute \(type) is missing"
        case .tooManyElements(let offset): return "offset \(offset): too many attributes"
        }
    }
}

/// Resource bounds on receipts. Decoding is linear in the input; these cap the input itself.
public enum ReceiptLimits: Sendable {
    /// Largest accepted input: the envelope's own bound, `PKCS7Limits.maxInputSize` (a receipt
    /// with 10,000 in-app purchases is about 3 MB). The payload lies inside the input (joined BER
    /// segments are shorter than the segments with their headers), so this bounds it too.
    public static let maxInputSize = PKCS7Limits.maxInputSize
    /// Most attributes in one in-app purchase SET, and in the payload SET besides its in-app
    /// purchases.
    public static let maxAttributesPerSet = 4096
    /// Most in-app purchases (type 17 attributes).
    public static let maxInAppPurchases = 100_000
}
