extension Base64 {
    /// RFC 4648 §5 (URL and filename safe) without padding, as JWS writes its parts (RFC 7515 §2).
    static func encodeURL(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: urlAlphabet, padded: false)
    }

    /// RFC 4648 §4 with `=` padding, as Apple's promotional offer signature and the Advanced
    /// Commerce `request` claim are written.
    static func encodeStandard(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: standardAlphabet, padded: true)
    }

    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Three bytes become four characters; a last group of one or two bytes becomes two or three
    /// characters, then `=` to four when `padded` (RFC 4648 §4). The input is public: the
    /// alphabet is indexed by it.
    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group: UInt32 = 0
            for offset in 0 ..< count { group |= UInt32(bytes[index + offset]) << (16 - 8 * UInt32(offset)) }
            for position in 0 ... count { output.append(alphabet[Int(group >> (18 - 6 * UInt32(position)) & 0x3F)]) }
            if padded { output.append(contentsOf: repeatElement(UInt8(ascii: "="), count: 3 - count)) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
