/// Why bytes were refused as a P-256 private key. The cases hold no key material: neither they
/// nor their descriptions ever show the bytes.
public enum P256SigningKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The private scalar is not 32 bytes (SEC 1 §2.3.7: a P-256 private key is encoded as
    /// exactly ⌈log2 n / 8⌉ = 32 octets).
    case wrongLength(actual: Int)
    /// The scalar d is 0 or not below the group order n (FIPS 186-5 §6.2.1, SEC 1 §3.2.1: d is
    /// in [1, n − 1]).
    case scalarOutOfRange

    /// A short English explanation (never the key's bytes).
    public var description: String {
        switch self {
        case .wrongLength(let actual): "P-256 private key is \(actual) bytes, expected 32"
        case .scalarOutOfRange: "P-256 private key is not in [1, n − 1]"
        }
    }
}
