/// A JSON object written member by member in the order given (RFC 8259 §4), for the headers and
/// claims this module signs. Strings are escaped as RFC 8259 §7 requires (quotation mark, reverse
/// solidus and the control characters); other characters are written as their UTF-8.
struct JSONObjectText: Sendable {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]

    /// A string member.
    mutating func add(_ name: String, _ value: String) {
        startMember(name)
        appendString(value)
    }

    /// An integer member (a JSON number without fraction or exponent).
    mutating func add(_ name: String, _ value: Int64) {
        startMember(name)
        bytes += Array(String(value).utf8)
    }

    /// A `true` or `false` member.
    mutating func add(_ name: String, _ value: Bool) {
        startMember(name)
        bytes += Array((value ? "true" : "false").utf8)
    }

    /// The object's UTF-8 text, closed.
    var utf8: [UInt8] { bytes + [UInt8(ascii: "}")] }

    private mutating func startMember(_ name: String) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes += [UInt8(ascii: "\\"), byte]
            case 0 ..< 0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
