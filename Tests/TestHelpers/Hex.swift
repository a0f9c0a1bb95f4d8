/// Hex conversion for test tables.
public enum Hex {
    /// Parses hex digits, ignoring spaces, newlines and colons. Traps on anything else (test input).
    public static func bytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var high: UInt8? = nil
        for scalar in text.unicodeScalars {
            let nibble: UInt8
            switch scalar {
            case "0" ... "9": nibble = UInt8(scalar.value - 48)
            case "a" ... "f": nibble = UInt8(scalar.value - 87)
            case "A" ... "F": nibble = UInt8(scalar.value - 55)
            case " ", "\n", "\t", ":": continue
            default: preconditionFailure("not hex: \(scalar)")
            }
            if let h = high { out.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        precondition(high == nil, "odd number of hex digits")
        return out
    }

    /// Lower-case hex of the bytes.
    public static func string<C: Sequence>(_ bytes: C) -> String where C.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
