/// The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1), taken out before
/// anything is decoded.
enum APIBearerToken {
    /// Longest token accepted, in bytes. Apple's clients sign a header and five short claims
    /// (about 400 bytes); anything near this bound is not theirs, and refusing it here keeps
    /// decoding and the cache small.
    static let maxLength = 8 << 10

    /// The token's bytes: the scheme `Bearer` (case-insensitive, RFC 7235 §2.1), one or more
    /// spaces, then a non-empty token of at most `maxLength` bytes with no space in it; nil for
    /// anything else.
    static func token(in header: String?) -> [UInt8]? {
        guard let header else { return nil }
        let bytes = header.utf8
        let scheme = "bearer".utf8
        guard bytes.count > scheme.count,
            zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 })
        else { return nil }
        let rest = bytes.dropFirst(scheme.count)
        guard rest.first == UInt8(ascii: " ") else { return nil }
        let token = rest.drop { $0 == UInt8(ascii: " ") }
        guard !token.isEmpty, token.count <= maxLength, !token.contains(UInt8(ascii: " ")) else { return nil }
        return Array(token)
    }
}
