/// Why `AppStoreSigner` refused to sign: an input that Apple's libraries would not accept either.
public enum AppStoreSignerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A promotional offer signature's nonce is not a UUID in its 36-character form
    /// (`8-4-4-4-12` hexadecimal digits): Apple's libraries take a UUID value there
    /// ("Generating a signature for promotional offers").
    case nonceNotUUID
    /// The Advanced Commerce request is not a JSON object (RFC 8259), read as this module reads
    /// signed payloads; the reader's error.
    case requestNotJSONObject(JWSPayloadError)

    /// A short English explanation.
    public var description: String {
        switch self {
        case .nonceNotUUID: "the nonce is not a UUID (8-4-4-4-12 hexadecimal digits)"
        case .requestNotJSONObject(let error): "the request is not a JSON object: \(error)"
        }
    }
}
