/// A minimal JSON writer that keeps keys in the order given (Apple's order), escapes strings per
/// RFC 8259 §7, and writes integers exactly. It appends UTF-8 bytes (servers write thousands of
/// these answers a second; `String` appends cost several times more) and makes one `String` at
/// the end. AppReceipt and LegacyReceipt write their answers with it.
package struct JSONWriter {
    private var bytes: [UInt8] = []
    private var needsComma = [false]

    package init() {
        bytes.reserveCapacity(1024)
    }

    /// The document written so far.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    package mutating func beginObject(_ key: String? = nil) { open(key, UInt8(ascii: "{")) }
    package mutating func endObject() { close(UInt8(ascii: "}")) }
    package mutating func beginArray(_ key: String? = nil) { open(key, UInt8(ascii: "[")) }
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    package mutating func string(_ key: String?, _ value: String) {
        separator(key)
        Self.appendQuoted(value, to: &bytes)
    }

    package mutating func integer(_ key: String?, _ value: Int64) {
        separator(key)
        bytes += String(value).utf8
    }

    private mutating func open(_ key: String?, _ bracket: UInt8) {
        separator(key)
        bytes.append(bracket)
        needsComma.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        needsComma.removeLast()
        bytes.append(bracket)
    }

    private mutating func separator(_ key: String?) {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
        if let key {
            Self.appendQuoted(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
        }
    }

    /// `value` quoted and escaped onto `text`.
    package static func appendQuoted(_ value: String, to text: inout String) {
        var bytes: [UInt8] = []
        appendQuoted(value, to: &bytes)
        text += String(decoding: bytes, as: UTF8.self)
    }

    /// `value` quoted and escaped as UTF-8 (RFC 8259 §7): `"` and `\` and the control characters
    /// U+0000–U+001F are escaped; every other byte is copied, so multi-byte UTF-8 sequences
    /// (all bytes ≥ 0x80) pass through whole.
    package static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): escape(byte, &bytes)
                case UInt8(ascii: "\n"): escape(UInt8(ascii: "n"), &bytes)
                case UInt8(ascii: "\r"): escape(UInt8(ascii: "r"), &bytes)
                case UInt8(ascii: "\t"): escape(UInt8(ascii: "t"), &bytes)
                case 0 ..< 0x20:
                    escape(UInt8(ascii: "u"), &bytes)
                    bytes += "00".utf8
                    bytes.append(hexDigit(byte >> 4))
                    bytes.append(hexDigit(byte & 0xF))
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func escape(_ byte: UInt8, _ bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(byte)
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
