// ct-sign: signs one message with a P-256 key given in hex, for the constant-time evidence of
// Scripts/ct-sign (callgrind instruction counts and lackey address traces compared across keys
// and messages of the same length). Throwaway keys only: the key is on the command line.
//
//     ct-sign <64 hex digits of d> <message>
//
// Everything that touches the key or the message between reading the arguments and printing the
// signature is branch-free, the hex conversions included (no table indexed by a digit), so that
// any difference the tools find is the library's.
import CryptoPrimitives

/// The value of one hex digit (0–9, a–f, A–F) without a branch or a table: letters have bit 6
/// set, and their low nibble plus 9 is their value. Other characters give garbage (test input).
@inline(__always)
func nibble(_ character: UInt8) -> UInt8 {
    let isLetter = (character >> 6) & 1
    return (character & 0x0f) &+ 9 &* isLetter
}

/// The bytes of an even number of hex digits.
func bytes(hex: [UInt8]) -> [UInt8] {
    (0 ..< hex.count / 2).map { nibble(hex[2 * $0]) << 4 | nibble(hex[2 * $0 + 1]) }
}

/// Lower-case hex, digits computed arithmetically: '0' + v, plus 39 more for v ≥ 10.
func hex(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(2 * bytes.count)
    for byte in bytes {
        for value in [byte >> 4, byte & 0x0f] {
            let isLetter = 0 &- ((9 &- value) >> 7)   // 0xff when value ≥ 10
            out.append(0x30 &+ value &+ (39 & isLetter))
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// Key, public point, digest and signature: the part the scripts measure.
@inline(never)
func constantTimeProbe(keyHex: [UInt8], message: [UInt8]) -> [UInt8]? {
    guard let key = try? P256SigningKey(rawRepresentation: bytes(hex: keyHex)) else { return nil }
    return key.signature(for: HashAlgorithm.sha256.hash(message))
}

let arguments = CommandLine.arguments
if arguments.count != 3 || arguments[1].utf8.count != 64 {
    print("usage: ct-sign <64 hex digits of the private key> <message>")
} else if let signature = constantTimeProbe(keyHex: Array(arguments[1].utf8), message: Array(arguments[2].utf8)) {
    print(hex(signature))
} else {
    print("ct-sign: the key is not in [1, n − 1]")
}
