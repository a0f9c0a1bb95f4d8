import COpenSSL
import Foundation

/// OpenSSL's verification of an App Store JWS (see `JWSCases`): Apple Root CA - G3 in an
/// `X509_STORE` built once; per token `d2i_X509` ×3, `X509_verify_cert` at the `signedDate` with
/// the intermediate untrusted, the two Apple extensions looked up, and ES256 with
/// `EVP_DigestVerify` (the raw r ‖ s converted to DER, OpenSSL's form).
final class OpenSSLJWS: @unchecked Sendable {
    let store: OpaquePointer
    let leafMarker: OpaquePointer
    let intermediateMarker: OpaquePointer

    init(rootDER: [UInt8]) {
        store = X509_STORE_new()
        guard let root = Self.certificate(Data(rootDER)), X509_STORE_add_cert(store, root) == 1 else {
            fatalError("OpenSSL: bad root: \(OpenSSL.lastError())")
        }
        X509_free(root)
        X509_STORE_set_purpose(store, X509_PURPOSE_ANY)
        leafMarker = OBJ_txt2obj("1.2.840.113635.100.6.11.1", 1)
        intermediateMarker = OBJ_txt2obj("1.2.840.113635.100.6.2.1", 1)
    }

    deinit {
        X509_STORE_free(store)
        ASN1_OBJECT_free(leafMarker)
        ASN1_OBJECT_free(intermediateMarker)
    }

    func verify(_ token: String) throws -> Int {
        let parts = try JWSParts(token)
        let certificates = parts.certificates.compactMap(Self.certificate)
        defer { certificates.forEach { X509_free($0) } }
        guard certificates.count == 3 else { throw PeerDecodingError("d2i_X509: \(OpenSSL.lastError())") }
        let (leaf, intermediate) = (certificates[0], certificates[1])
        guard X509_get_ext_by_OBJ(leaf, leafMarker, -1) >= 0, X509_get_ext_by_OBJ(intermediate, intermediateMarker, -1) >= 0 else {
            throw PeerDecodingError("Apple extensions missing")
        }
        let untrusted = OPENSSL_sk_new_null()
        defer { OPENSSL_sk_free(untrusted) }
        OPENSSL_sk_push(untrusted, UnsafeRawPointer(intermediate))
        guard let context = X509_STORE_CTX_new() else { throw PeerDecodingError("X509_STORE_CTX_new") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf, untrusted) == 1 else { throw PeerDecodingError("X509_STORE_CTX_init") }
        X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), time_t(parts.signedDate.timeIntervalSince1970))
        guard X509_verify_cert(context) == 1 else {
            throw PeerDecodingError("X509_verify_cert: \(String(cString: X509_verify_cert_error_string(Int(X509_STORE_CTX_get_error(context)))))")
        }
        guard try Self.verifySignature(parts, key: X509_get0_pubkey(leaf)) else { throw PeerDecodingError("ES256 signature invalid") }
        return 1
    }

    static func certificate(_ der: Data) -> OpaquePointer? {
        der.withUnsafeBytes { raw -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = raw.bindMemory(to: UInt8.self).baseAddress
            return d2i_X509(nil, &cursor, raw.count)
        }
    }

    /// ES256: `EVP_DigestVerify` with SHA-256 over the signing input; r ‖ s becomes a DER `ECDSA_SIG`.
    static func verifySignature(_ parts: JWSParts, key: OpaquePointer?) throws -> Bool {
        guard parts.signature.count == 64, let key, let signature = ECDSA_SIG_new() else { return false }
        defer { ECDSA_SIG_free(signature) }
        let (r, s) = parts.signature.withUnsafeBytes { raw in
            (BN_bin2bn(raw.bindMemory(to: UInt8.self).baseAddress, 32, nil), BN_bin2bn(raw.bindMemory(to: UInt8.self).baseAddress! + 32, 32, nil))
        }
        guard ECDSA_SIG_set0(signature, r, s) == 1 else { return false }
        var der: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_ECDSA_SIG(signature, &der)
        defer { CRYPTO_free(der, #file, #line) }
        guard length > 0, let der, let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return parts.signingInput.withUnsafeBytes { input in
            EVP_DigestVerify(context, der, Int(length), input.bindMemory(to: UInt8.self).baseAddress, input.count) == 1
        }
    }
}
