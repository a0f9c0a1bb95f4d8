/// ECDSA signatures in DER, `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` (SEC 1 §C.8,
/// RFC 3279 §2.2.3), written without the DER module (CryptoPrimitives imports nothing of ours).
enum ECDSASignatureDER {
    /// The DER of r ‖ s given as equal halves of big-endian bytes (public values).
    static func encode(rawRepresentation signature: [UInt8]) -> [UInt8] {
        let half = signature.count / 2
        let r = integer(signature[..<half]), s = integer(signature[half...])
        return [0x30] + length(r.count + s.count) + r + s
    }

    /// INTEGER of an unsigned big-endian magnitude: leading zero bytes dropped, one 0x00 put back
    /// when the top bit is set (X.690 §8.3: minimal two's complement).
    private static func integer(_ magnitude: ArraySlice<UInt8>) -> [UInt8] {
        var content = Array(magnitude.drop { $0 == 0 })
        if content.isEmpty || content[0] & 0x80 != 0 { content.insert(0, at: 0) }
        return [0x02] + length(content.count) + content
    }

    /// A definite length: short form below 128, else 0x81 and one byte (X.690 §8.1.3; a P-384
    /// signature's content stays below 256 bytes).
    private static func length(_ count: Int) -> [UInt8] {
        count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)]
    }
}
