import CryptoPrimitives
import DER
import X509Certificates

/// A synthetic chain shaped like the one Apple signs StoreKit 2 data with: a P-384 root ←
/// a P-384 intermediate (WWDR marker 6.2.1) ← a P-256 leaf (marker 6.11.1), each link signed
/// with ecdsa-with-SHA384, each key a throwaway. Tests change one certificate to break one rule.
public struct TestJWSChain: Sendable {
    public var root: TestCertificate
    public var intermediate: TestCertificate
    public var leaf: TestCertificate

    public init(rootName: String = "Receipt Toolkit Test Root CA - G3") {
        root = TestCertificate(
            commonName: rootName, key: TestECKeys.p384[0], serialNumber: [0x03], signatureHash: .sha384,
            extensions: [.basicConstraints(ca: true), .keyUsage([.keyCertSign, .cRLSign])])
        intermediate = TestCertificate(
            commonName: "Receipt Toolkit Test WWDR G6", key: TestECKeys.p384[1], serialNumber: [0x20, 0x06],
            signatureHash: .sha384,
            extensions: [
                .basicConstraints(ca: true, pathLength: 0), .keyUsage([.keyCertSign, .cRLSign]),
                .marker(OIDs.appleWWDRIntermediateExtension),
            ])
        leaf = TestCertificate(
            commonName: "Receipt Toolkit Test ECC Receipt Signing", key: TestECKeys.p256[0],
            serialNumber: [0x6E, 0x1F], signatureHash: .sha384,
            extensions: [
                .basicConstraints(ca: false), .keyUsage([.digitalSignature]),
                .policies([OIDs.appleReceiptSigningPolicy]), .marker(OIDs.appleReceiptSigningExtension),
            ])
    }

    /// The three certificates' DER, leaf, intermediate, root (the `x5c` order).
    public var certificates: [[UInt8]] {
        [leaf.signed(by: intermediate), intermediate.signed(by: root), root.selfSigned()]
    }

    /// The root's DER (for use as a trust anchor).
    public var rootCertificate: [UInt8] { root.selfSigned() }

    /// A compact JWS of `payload` signed by the leaf's key, carrying `x5c` (this chain by default).
    public func token(payload: String, x5c: [[UInt8]]? = nil, algorithm: String = "ES256") -> String {
        TestJWS.token(
            header: TestJWS.header(algorithm: algorithm, x5c: x5c ?? certificates), payload: payload,
            signer: leaf.key as! TestECSigningKey)
    }
}

/// Compact JWS (RFC 7515 §7.1) made by hand, for tests: any header, any payload, ES256 by a test key.
public enum TestJWS: Sendable {
    /// A header JSON object: `alg` and, when given, `x5c` as standard base64 DER.
    public static func header(algorithm: String = "ES256", x5c: [[UInt8]]?) -> String {
        var members = ["\"alg\":\"\(algorithm)\""]
        if let x5c { members.append("\"x5c\":[" + x5c.map { "\"" + base64($0) + "\"" }.joined(separator: ",") + "]") }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// `base64url(header) . base64url(payload) . base64url(signature)`, the ES256 signature (raw
    /// r ‖ s) made by `signer` over the first two parts.
    public static func token(header: String, payload: String, signer: TestECSigningKey) -> String {
        let signingInput = base64URL(Array(header.utf8)) + "." + base64URL(Array(payload.utf8))
        let signature = signer.sign(digest: SHA256.hash(Array(signingInput.utf8)))
        return signingInput + "." + base64URL(signature)
    }

    /// Unpadded base64url (RFC 4648 §5).
    public static func base64URL(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8), padded: false)
    }

    /// Padded standard base64 (RFC 4648 §4).
    public static func base64(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8), padded: true)
    }

    /// Kept apart from AppStoreJWS's encoder (`AppStoreSigner`'s), which is internal: sharing it
    /// would make base64 public API of AppStoreJWS, and tokens made here would no longer check
    /// the verifier's decoder against an independent encoder.
    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool) -> String {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index ..< min(index + 3, bytes.count)]
            var group: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { group |= UInt32(byte) << (16 - 8 * UInt32(offset)) }
            for position in 0 ..< chunk.count + 1 { output.append(alphabet[Int(group >> (18 - 6 * UInt32(position)) & 0x3F)]) }
            if padded { output.append(contentsOf: repeatElement(UInt8(ascii: "="), count: 3 - chunk.count)) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
