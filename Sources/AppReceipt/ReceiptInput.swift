import DER

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
        guard !alphabet.isEmpty, let bytes = Base64Text.decode(alphabet) else { return raw }
        return bytes
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

    /// The text between the first `-----BEGIN` line and the following `-----END`, if any (the
    /// input must be UTF-8; the markers are searched for as bytes).
    private static func pemBody(_ raw: [UInt8]) -> [UInt8]? {
        guard UTF8Validation.string(raw) != nil,
            let begin = firstIndex(of: Array("-----BEGIN ".utf8), in: raw, from: 0),
            let headerEnd = firstIndex(of: Array("-----".utf8), in: raw, from: begin + 11),
            let end = firstIndex(of: Array("-----END ".utf8), in: raw, from: headerEnd + 5)
        else { return nil }
        return Array(raw[(headerEnd + 5) ..< end])
    }

    /// Where `pattern` first occurs in `bytes` at or after `start`.
    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index ..< index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}

extension AppReceipt {
    /// Decodes a receipt given as binary DER/BER or as base64 text (whitespace ignored), the way
    /// apps and servers usually hold it.
    public init(binaryOrBase64 bytes: [UInt8]) throws(ReceiptError) {
        try self.init(ReceiptInput.decode(bytes))
    }
}
