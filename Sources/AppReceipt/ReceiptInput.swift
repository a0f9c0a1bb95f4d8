import DER
import Foundation

/// Input forms a receipt, certificate or any DER file may arrive in.
public enum ReceiptInput: Sendable {
    /// Text longer than this is not decoded but returned as it is (and then refused by size):
    /// base64 carries 3 bytes in 4 characters, and line breaks (2 per 64 characters) and PEM
    /// armour add under 4 %, so the text of a receipt within `ReceiptLimits.maxInputSize` takes
    /// at most about 1.39 times that; 1.5 times leaves room and bounds the work of decoding.
    public static let maxTextSize = ReceiptLimits.maxInputSize / 2 * 3

    /// Binary bytes as they are when they hold exactly one BER element; otherwise base64 text
    /// (A–Z a–z 0–9 + / = and whitespace, with any PEM armour `-----BEGIN …-----` stripped)
    /// decoded; anything else as it is. Text longer than `maxTextSize` is not decoded.
    public static func decode(_ raw: [UInt8]) -> [UInt8] {
        if isOneElement(raw) || raw.count > maxTextSize { return raw }
        var text = raw[...]
        if let armored = pemBody(raw) { text = armored[...] }
        var alphabet: [UInt8] = []
        alphabet.reserveCapacity(text.count)
        for byte in text {
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09: continue
            case 0x41 ... 0x5A, 0x61 ... 0x7A, 0x30 ... 0x39, 0x2B, 0x2F, 0x3D: alphabet.append(byte)
            default: return raw
            }
        }
        guard !alphabet.isEmpty, let data = Data(base64Encoded: Data(alphabet)) else { return raw }
        return [UInt8](data)
    }

    /// Why `decoded` (what `decode` made of the input) cannot be a receipt at all, in words a
    /// person acts on, when it is empty or not DER (every receipt starts with a SEQUENCE, byte
    /// 0x30); nil when it may be one, and its own decoding error says what is wrong.
    public static func notAReceipt(_ decoded: [UInt8]) -> String? {
        guard let first = decoded.first else { return "the input is empty" }
        guard first != 0x30 else { return nil }
        return "this is neither DER (a receipt starts with byte 0x30) nor the base64 of a receipt (which starts \"MI\"), "
            + "nor StoreKit 2 signed data (three base64url parts joined by dots, starting \"eyJ\"), "
            + "nor an iOS 6 transaction receipt (text starting \"{\")"
    }

    /// Whether `raw` is one complete BER element and nothing else (base64 text practically never
    /// is: its first octet would have to announce exactly the text's length).
    private static func isOneElement(_ raw: [UInt8]) -> Bool {
        raw.withUnsafeBytes { bytes in
            var reader = ASN1Reader(bytes, rules: .ber)
            return (try? reader.readElement()) != nil && reader.isAtEnd
        }
    }

    /// The text between the first `-----BEGIN` line and the following `-----END`, if any.
    private static func pemBody(_ raw: [UInt8]) -> [UInt8]? {
        guard let text = UTF8Validation.string(raw),
            let begin = text.range(of: "-----BEGIN "),
            let headerEnd = text[begin.upperBound...].range(of: "-----"),
            let end = text[headerEnd.upperBound...].range(of: "-----END ")
        else { return nil }
        return Array(text[headerEnd.upperBound ..< end.lowerBound].utf8)
    }
}

extension AppReceipt {
    /// Decodes a receipt given as binary DER/BER or as base64 text (whitespace ignored), the way
    /// apps and servers usually hold it.
    public init(binaryOrBase64 bytes: [UInt8]) throws(ReceiptError) {
        try self.init(ReceiptInput.decode(bytes))
    }

    /// Decodes `Data` (binary or base64 text).
    public init(data: Data) throws(ReceiptError) {
        try self.init(binaryOrBase64: [UInt8](data))
    }
}
