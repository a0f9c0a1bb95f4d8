/// One UTF-8 encoded scalar, checked as RFC 3629 §4 defines it: no overlong forms, no surrogates
/// (U+D800–DFFF), nothing above U+10FFFF.
package enum UTF8Scalar {
    /// The offset just after the multi-byte scalar starting at `offset` (its lead byte ≥ 0x80).
    @inlinable
    package static func skip(_ bytes: [UInt8], at offset: Int) throws(JSONError) -> Int {
        let lead = bytes[offset]
        let length: Int, lowest: UInt8, highest: UInt8   // bounds on the second byte (RFC 3629 §4)
        switch lead {
        case 0xC2 ... 0xDF: (length, lowest, highest) = (2, 0x80, 0xBF)
        case 0xE0: (length, lowest, highest) = (3, 0xA0, 0xBF)   // no overlong 3-byte forms
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: (length, lowest, highest) = (3, 0x80, 0xBF)
        case 0xED: (length, lowest, highest) = (3, 0x80, 0x9F)   // no surrogates
        case 0xF0: (length, lowest, highest) = (4, 0x90, 0xBF)   // no overlong 4-byte forms
        case 0xF1 ... 0xF3: (length, lowest, highest) = (4, 0x80, 0xBF)
        case 0xF4: (length, lowest, highest) = (4, 0x80, 0x8F)   // nothing above U+10FFFF
        default: throw JSONError(.invalidUTF8, at: offset)
        }
        guard offset + length <= bytes.count else { throw JSONError(.invalidUTF8, at: offset) }
        guard (lowest ... highest).contains(bytes[offset + 1]) else { throw JSONError(.invalidUTF8, at: offset) }
        for index in 2 ..< length where !(0x80 ... 0xBF).contains(bytes[offset + index]) {
            throw JSONError(.invalidUTF8, at: offset)
        }
        return offset + length
    }
}

/// String escapes (RFC 8259 §7): `\" \\ \/ \b \f \n \r \t` and `\uXXXX`, with UTF-16 surrogate
/// pairs combined and lone surrogates refused.
package enum JSONStringUnescaper {
    /// The offset just after the escape starting at `offset` (a backslash), checking its shape.
    @inlinable
    package static func skipEscape(_ bytes: [UInt8], at offset: Int) throws(JSONError) -> Int {
        var position = offset
        _ = try readEscape(bytes, &position)
        return position
    }

    /// The unescaped text of a string's content (between the quotes), already scanned by
    /// `JSONReader`, so every escape in it is well-formed.
    @inlinable
    package static func unescape(_ content: ArraySlice<UInt8>) throws(JSONError) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(content.count)
        let bytes = Array(content)
        var position = 0
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "\\") {
                let scalar = try readEscape(bytes, &position)
                output.append(contentsOf: String(Character(scalar)).utf8)
            } else {
                output.append(bytes[position])
                position += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Reads one escape at `position` (a backslash) and moves past it.
    @inlinable
    package static func readEscape(_ bytes: [UInt8], _ position: inout Int) throws(JSONError) -> Unicode.Scalar {
        let start = position
        guard position + 1 < bytes.count else { throw JSONError(.unexpectedEnd, at: bytes.count) }
        let letter = bytes[position + 1]
        position += 2
        switch letter {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try readHex4(bytes, &position, escapeStart: start)
            switch unit {
            case 0xD800 ... 0xDBFF:
                // A high surrogate must be followed by `\u` and a low surrogate.
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw JSONError(.invalidEscape, at: start)
                }
                position += 2
                let low = try readHex4(bytes, &position, escapeStart: start)
                guard (0xDC00 ... 0xDFFF).contains(low) else { throw JSONError(.invalidEscape, at: start) }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
            case 0xDC00 ... 0xDFFF:
                throw JSONError(.invalidEscape, at: start)
            default:
                return Unicode.Scalar(unit)!
            }
        default:
            throw JSONError(.invalidEscape, at: start)
        }
    }

    @inlinable
    package static func readHex4(_ bytes: [UInt8], _ position: inout Int, escapeStart: Int) throws(JSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw JSONError(.unexpectedEnd, at: bytes.count) }
        var value: UInt32 = 0
        for _ in 0 ..< 4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONError(.invalidEscape, at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
