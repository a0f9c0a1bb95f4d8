import COpenSSL
import Foundation

/// The system's libcrypto (OpenSSL 3), called the way a C receipt validator would.
///
/// - decode: `d2i_PKCS7` (the whole envelope, certificates included, BER accepted) + a walk of the
///   payload with `ASN1_get_object`: the payload SET, each attribute SEQUENCE (type and version
///   INTEGERs through `d2i_ASN1_INTEGER` + `ASN1_INTEGER_get_int64`, value OCTET STRING), each
///   value's UTF8String/IA5String/INTEGER into the same typed values as ours, and every type-17
///   in-app SET the same way; then `PKCS7_free`.
/// - verify: `d2i_PKCS7` + `PKCS7_verify` (signature over the content and the chain through the
///   embedded certificates) against an `X509_STORE` holding only the anchor, with
///   `X509_V_FLAG_NO_CHECK_TIME` (the signing certificates have expired; OpenSSL cannot verify at
///   the receipt's creation date without decoding it first) and purpose "any" (as
///   `openssl cms -verify -purpose any`), + the payload walk. The store is built once, like our
///   policy. OpenSSL has no memory of verified links: its "warm" run is the same work as cold.
/// - SHA: `EVP_Digest` with an `EVP_MD` fetched once. RSA: `EVP_PKEY_verify` (PKCS#1 v1.5,
///   SHA-256 digest given) on a context initialised once.
public enum OpenSSL {
    public static var version: String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }

    // MARK: decode

    public static func decode(_ bytes: [UInt8]) throws -> Int {
        try withPKCS7(bytes) { try payload($0).purchases.count }
    }

    public static func values(_ bytes: [UInt8]) throws -> PeerReceipt {
        try withPKCS7(bytes) { try payload($0) }
    }

    static func withPKCS7<R>(_ bytes: [UInt8], _ body: (UnsafeMutablePointer<PKCS7>) throws -> R) throws -> R {
        let p7 = bytes.withUnsafeBufferPointer { buffer -> UnsafeMutablePointer<PKCS7>? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PKCS7(nil, &cursor, buffer.count)
        }
        guard let p7 else { throw PeerDecodingError("d2i_PKCS7: \(lastError())") }
        defer { PKCS7_free(p7) }
        return try body(p7)
    }

    /// The signed content of a SignedData whose content type is `data`.
    static func content(_ p7: UnsafeMutablePointer<PKCS7>) throws -> UnsafeRawBufferPointer {
        guard OBJ_obj2nid(p7.pointee.type) == NID_pkcs7_signed, let signed = p7.pointee.d.sign,
            let inner = signed.pointee.contents, OBJ_obj2nid(inner.pointee.type) == NID_pkcs7_data,
            let octets = inner.pointee.d.data, let data = ASN1_STRING_get0_data(octets)
        else { throw PeerDecodingError("not SignedData over data") }
        return UnsafeRawBufferPointer(start: data, count: Int(ASN1_STRING_length(octets)))
    }

    static func payload(_ p7: UnsafeMutablePointer<PKCS7>) throws -> PeerReceipt {
        let content = try content(p7)
        guard let integer = ASN1_INTEGER_new() else { throw PeerDecodingError("ASN1_INTEGER_new") }
        defer { ASN1_INTEGER_free(integer) }
        let walker = PayloadWalker(integer: integer)
        var receipt = PeerReceipt()
        let base = content.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let set = try walker.header(base, base + content.count, tag: V_ASN1_SET, constructed: true)
        try walker.attributes(set.content, set.end) { type, version, value in
            receipt.rawAttributes.append(RawAttribute(type: type, version: version, valueCount: value.count))
            if type == 17 {
                let inner = try walker.header(value.start, value.start + value.count, tag: V_ASN1_SET, constructed: true)
                var purchase = PeerPurchase()
                try walker.attributes(inner.content, inner.end) { type, version, value in
                    receipt.rawAttributes.append(RawAttribute(type: type, version: version, valueCount: value.count))
                    try purchase.assign(type, Value(walker: walker, start: value.start, count: value.count))
                }
                receipt.purchases.append(purchase)
            } else {
                try receipt.assign(type, Value(walker: walker, start: value.start, count: value.count))
            }
        }
        return receipt
    }

    /// `ASN1_get_object` over the payload, INTEGERs through a reused `ASN1_INTEGER`.
    struct PayloadWalker {
        let integer: UnsafeMutablePointer<ASN1_INTEGER>

        /// Reads one header at `p`; returns where its content starts and ends.
        func header(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, tag expected: Int32, constructed: Bool)
            throws -> (content: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>)
        {
            var cursor: UnsafePointer<UInt8>? = p
            var length = 0, tag: Int32 = 0, tagClass: Int32 = 0
            let flags = ASN1_get_object(&cursor, &length, &tag, &tagClass, end - p)
            guard flags & 0x80 == 0, flags & 0x01 == 0, tag == expected, tagClass == V_ASN1_UNIVERSAL,
                (flags & V_ASN1_CONSTRUCTED != 0) == constructed, let content = cursor
            else { throw PeerDecodingError("ASN1_get_object: expected tag \(expected)") }
            return (content, content + length)
        }

        /// An INTEGER element at `p` as Int64 (`d2i_ASN1_INTEGER` into the reused object).
        func integer(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws -> (value: Int64, next: UnsafePointer<UInt8>) {
            var cursor: UnsafePointer<UInt8>? = p
            var target: UnsafeMutablePointer<ASN1_INTEGER>? = integer
            var value: Int64 = 0
            guard d2i_ASN1_INTEGER(&target, &cursor, end - p) != nil, ASN1_INTEGER_get_int64(&value, integer) == 1,
                let next = cursor
            else { throw PeerDecodingError("d2i_ASN1_INTEGER") }
            return (value, next)
        }

        /// Each `SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }` in `p..<end`.
        func attributes(
            _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>,
            _ body: (Int, Int, (start: UnsafePointer<UInt8>, count: Int)) throws -> Void
        ) throws {
            var p = start
            while p < end {
                let sequence = try header(p, end, tag: V_ASN1_SEQUENCE, constructed: true)
                let type = try integer(sequence.content, sequence.end)
                let version = try integer(type.next, sequence.end)
                let value = try header(version.next, sequence.end, tag: V_ASN1_OCTET_STRING, constructed: false)
                guard value.end == sequence.end else { throw PeerDecodingError("attribute has extra fields") }
                try body(Int(type.value), Int(version.value), (value.content, value.end - value.content))
                p = sequence.end
            }
        }
    }

    struct Value: AttributeValueDecoder {
        let walker: PayloadWalker
        let start: UnsafePointer<UInt8>
        let count: Int

        func text(_ tag: Int32) throws -> UnsafeRawBufferPointer {
            let element = try walker.header(start, start + count, tag: tag, constructed: false)
            guard element.end == start + count else { throw PeerDecodingError("trailing bytes in value") }
            return UnsafeRawBufferPointer(start: element.content, count: element.end - element.content)
        }

        func utf8String() throws -> String { String(decoding: try text(V_ASN1_UTF8STRING), as: UTF8.self) }
        func ia5String() throws -> String { String(decoding: try text(V_ASN1_IA5STRING), as: UTF8.self) }
        func date() throws -> Date? { try ReceiptDate.parse(try text(V_ASN1_IA5STRING)) }
        func integer() throws -> Int64 {
            let result = try walker.integer(start, start + count)
            guard result.next == start + count else { throw PeerDecodingError("trailing bytes in value") }
            return result.value
        }
        var octets: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }
    }

    // MARK: verify

    /// An `X509_STORE` holding one anchor, no time check, purpose any. Built once per anchor.
    public final class TrustStore: @unchecked Sendable {
        public let store: OpaquePointer

        public init(anchorDER: [UInt8]) {
            store = X509_STORE_new()
            let certificate = anchorDER.withUnsafeBufferPointer { buffer -> OpaquePointer? in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_X509(nil, &cursor, buffer.count)
            }
            guard let certificate, X509_STORE_add_cert(store, certificate) == 1 else { fatalError("OpenSSL: bad anchor: \(lastError())") }
            X509_free(certificate)
            X509_STORE_set_flags(store, UInt(X509_V_FLAG_NO_CHECK_TIME))
            X509_STORE_set_purpose(store, X509_PURPOSE_ANY)
        }

        deinit { X509_STORE_free(store) }
    }

    /// `d2i_PKCS7` + `PKCS7_verify` + payload walk; throws when verification fails.
    public static func verify(_ bytes: [UInt8], store: TrustStore) throws -> Int {
        try withPKCS7(bytes) { p7 in
            guard PKCS7_verify(p7, nil, store.store, nil, nil, 0) == 1 else {
                throw PeerDecodingError("PKCS7_verify: \(lastError())")
            }
            return try payload(p7).purchases.count
        }
    }

    // MARK: digests and RSA

    nonisolated(unsafe) static let sha256MD: OpaquePointer = EVP_MD_fetch(nil, "SHA256", nil)
    nonisolated(unsafe) static let sha1MD: OpaquePointer = EVP_MD_fetch(nil, "SHA1", nil)

    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> Int { digest(bytes, sha256MD) }
    public static func sha1(_ bytes: UnsafeRawBufferPointer) -> Int { digest(bytes, sha1MD) }

    static func digest(_ bytes: UnsafeRawBufferPointer, _ algorithm: OpaquePointer) -> Int {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(EVP_MAX_MD_SIZE)) { out in
            var length: UInt32 = 0
            guard EVP_Digest(bytes.baseAddress, bytes.count, out.baseAddress, &length, algorithm, nil) == 1 else { return -1 }
            return out.prefix(8).reduce(0) { $0 << 8 | Int($1) }
        }
    }

    /// RSA PKCS#1 v1.5 / SHA-256 verification with a context initialised once.
    public final class RSAVerifier: @unchecked Sendable {
        let key: OpaquePointer
        let context: OpaquePointer

        public init(subjectPublicKeyInfo spki: [UInt8]) {
            let key = spki.withUnsafeBufferPointer { buffer -> OpaquePointer? in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_PUBKEY(nil, &cursor, buffer.count)
            }
            guard let key, let context = EVP_PKEY_CTX_new(key, nil), EVP_PKEY_verify_init(context) == 1,
                EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1,
                EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) == 1
            else { fatalError("OpenSSL: RSA key setup failed: \(lastError())") }
            self.key = key
            self.context = context
        }

        deinit {
            EVP_PKEY_CTX_free(context)
            EVP_PKEY_free(key)
        }

        public func verify(signature: [UInt8], digest: [UInt8]) -> Int {
            EVP_PKEY_verify(context, signature, signature.count, digest, digest.count) == 1 ? 1 : 0
        }
    }

    static func lastError() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "no OpenSSL error queued" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        ERR_clear_error()
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
