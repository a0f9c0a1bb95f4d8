import CryptoPrimitives
import DER

/// Which public keys a trust policy lets reach a signature check. Checked on every certificate of
/// a message before any RSA or EC operation, so that keys no genuine chain of the policy uses
/// cost nothing: an attacker's RSA-8192 key with a 64-bit exponent takes about 100 times the work
/// of Apple's RSA-2048 keys with e = 65537.
public struct PublicKeyRules: Sendable, Hashable {
    /// RSA modulus sizes allowed, in bits; `nil` refuses RSA keys.
    public var rsaModulusBits: ClosedRange<Int>?
    /// The one RSA public exponent allowed; `nil` allows any that `RSAPublicKey` accepts.
    public var rsaExponent: UInt64?
    /// Curves allowed for id-ecPublicKey keys; empty refuses EC keys.
    public var curves: Set<EllipticCurve>

    /// Makes rules from the RSA modulus sizes (`nil`: no RSA), the one RSA exponent allowed (`nil`:
    /// any) and the curves allowed (empty: no EC keys).
    public init(rsaModulusBits: ClosedRange<Int>?, rsaExponent: UInt64?, curves: Set<EllipticCurve>) {
        self.rsaModulusBits = rsaModulusBits
        self.rsaExponent = rsaExponent
        self.curves = curves
    }

    /// What the key types themselves accept: RSA 1024…8192 bits with any odd exponent of at most
    /// 64 bits (`RSAPublicKey`), P-256 and P-384. Custom policies use these.
    public static let general = PublicKeyRules(
        rsaModulusBits: RSAPublicKey.supportedModulusBits, rsaExponent: nil,
        curves: [.p256, .p384])

    /// App Store receipts: Apple Root CA, its WWDR intermediates and their receipt-signing leaves
    /// all hold RSA-2048 keys with e = 65537 (RFC 8017 §A.1.1 allows others; Apple uses none);
    /// 4096 leaves room for a future re-issue. EC keys on P-256 and P-384, as Apple's G3 hierarchy.
    public static let appStoreReceipts = PublicKeyRules(
        rsaModulusBits: 2048 ... 4096, rsaExponent: 65_537,
        curves: [.p256, .p384])

    /// App Store signed data (JWS): Apple Root CA - G3 and its WWDR intermediates hold P-384 keys,
    /// the signing leaves P-256 (RFC 7518 §3.4: ES256). No RSA key belongs in such a chain.
    public static let appStoreSignedData = PublicKeyRules(rsaModulusBits: nil, rsaExponent: nil, curves: [.p256, .p384])

    /// Refuses `certificate` unless its key is one these rules allow. Reads only the key's
    /// encoding (sizes and bytes): no arithmetic.
    package func check(_ certificate: Certificate) throws(VerificationError) {
        switch certificate.publicKey {
        case .rsa(let modulus, let exponent):
            guard let allowed = rsaModulusBits else {
                throw .keyTypeNotAllowed(subject: certificate.subjectName)
            }
            let bits = Self.bitCount(certificate.storage[modulus])
            guard allowed.contains(bits) else {
                throw .rsaKeySizeNotAllowed(subject: certificate.subjectName, bits: bits)
            }
            if let rsaExponent, Self.value(certificate.storage[exponent]) != rsaExponent {
                throw .rsaExponentNotAllowed(subject: certificate.subjectName)
            }
        case .ec(let curveOID, _):
            guard let curve = EllipticCurve(oid: curveOID), curves.contains(curve) else {
                throw .keyTypeNotAllowed(subject: certificate.subjectName)
            }
        case .other:
            throw .keyTypeNotAllowed(subject: certificate.subjectName)
        }
    }

    /// Significant bits of a big-endian magnitude (leading zero bytes allowed).
    static func bitCount(_ magnitude: ArraySlice<UInt8>) -> Int {
        guard let first = magnitude.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (magnitude.endIndex - first - 1) * 8 + (8 - magnitude[first].leadingZeroBitCount)
    }

    /// The magnitude as a number, or `nil` past 64 bits.
    static func value(_ magnitude: ArraySlice<UInt8>) -> UInt64? {
        let significant = magnitude.drop { $0 == 0 }
        guard significant.count <= 8 else { return nil }
        return significant.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
