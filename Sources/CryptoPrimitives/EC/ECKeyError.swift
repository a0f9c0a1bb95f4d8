/// Why an elliptic-curve public key was refused: one case per rule of SEC 1 §2.3.4 (decoding)
/// and §3.2.2.1 (public key validation).
public enum ECKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The encoding is not 1 + 2 × `EllipticCurve.byteCount` bytes (65 for P-256, 97 for P-384).
    case wrongLength(expected: Int, actual: Int)
    /// The first byte is 0x02 or 0x03: the compressed form (SEC 1 §2.3.3 step 3). Refused, not
    /// decompressed: Apple's certificates, JWS keys (RFC 7518 §6.2.1 gives x and y) and every
    /// public key we meet in practice are uncompressed, and accepting a second form would give one
    /// key two encodings.
    case compressedPoint
    /// The encoding is the single byte 0x00 or starts with it: the point at infinity (SEC 1
    /// §2.3.3 step 1), never a valid public key (§3.2.2.1 step 1).
    case pointAtInfinity
    /// The first byte is neither 0x04 (uncompressed) nor one of the above (the hybrid forms 0x06
    /// and 0x07 of ANSI X9.62 are refused too).
    case notUncompressed(firstByte: UInt8)
    /// x or y is not below the field prime p (SEC 1 §3.2.2.1 step 2).
    case coordinateNotBelowPrime
    /// (x, y) does not satisfy y² = x³ − 3x + b (SEC 1 §3.2.2.1 step 3).
    case notOnCurve

    /// A short English explanation.
    public var description: String {
        switch self {
        case .wrongLength(let expected, let actual): "EC public key is \(actual) bytes, expected \(expected) (0x04 ‖ X ‖ Y)"
        case .compressedPoint: "EC public key is in compressed form (0x02/0x03), which is not supported"
        case .pointAtInfinity: "EC public key is the point at infinity"
        case .notUncompressed(let byte): "EC public key starts with 0x\(String(byte, radix: 16)), not 0x04 (uncompressed)"
        case .coordinateNotBelowPrime: "EC public key coordinate is not below the field prime"
        case .notOnCurve: "EC public key is not a point on the curve"
        }
    }
}
