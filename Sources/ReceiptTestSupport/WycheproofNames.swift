import CryptoPrimitives

/// Wycheproof's names for hashes and curves (`"sha": "SHA-256"`, `"curve": "secp256r1"`) as the
/// toolkit's types, for the vector runners; `nil` for what the toolkit does not implement
/// (SHA-512/224, SHA3-*, other curves), which the runners skip and count.
public enum WycheproofNames: Sendable {
    public static func hashAlgorithm(_ name: String?) -> HashAlgorithm? {
        switch name {
        case "SHA-1": .sha1
        case "SHA-224": .sha224
        case "SHA-256": .sha256
        case "SHA-384": .sha384
        case "SHA-512": .sha512
        default: nil
        }
    }

    public static func curve(_ name: String?) -> EllipticCurve? {
        switch name {
        case "secp256r1": .p256
        case "secp384r1": .p384
        default: nil
        }
    }
}
