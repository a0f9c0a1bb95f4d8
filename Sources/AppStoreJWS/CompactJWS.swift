import CryptoPrimitives
import JSONText
import X509Certificates

/// The JOSE header of a token (RFC 7515 §4).
public struct JWSHeader: Sendable {
    /// `alg` (RFC 7515 §4.1.1), `nil` when absent.
    public let algorithm: String?
    /// `x5c` (§4.1.6), decoded and parsed: the signing certificate first. Every entry is read with
    /// the same strict parser, whether a path uses it or not.
    public let certificateChain: [Certificate]?
    /// `kid` (§4.1.4).
    public let keyID: String?
    /// `typ` (§4.1.9).
    public let type: String?
    /// Whether `crit` (§4.1.11) is present: it lists extensions the recipient must understand.
    public let hasCriticalParameters: Bool
    /// Other parameters, as signed.
    public let otherParameters: [String: JSONValue]
}

/// A compact-serialised JWS (RFC 7515 §7.1) taken apart and decoded, not yet verified:
/// `base64url(header) "." base64url(payload) "." base64url(signature)`.
public struct CompactJWS: Sendable {
    /// The token as received.
    public let token: [UInt8]
    /// The decoded JOSE header.
    public let header: JWSHeader
    /// The payload bytes (JSON for App Store data).
    public let payload: [UInt8]
    /// The signature bytes.
    public let signature: [UInt8]
    /// Where the signing input ends: the signature covers `token[..<signingInputEnd]`, the ASCII
    /// of the first two parts with their dot, exactly as received (RFC 7515 §5.2 step 8).
    public let signingInputEnd: Int
    /// Where the first part (the header's base64url text) ends: the first dot.
    let headerEnd: Int
    /// When `header` came from a `JWSHeaderCache` (its text matched a remembered one): SHA-256
    /// after that text and its dot, from which the signing input's digest resumes.
    let hashedHeader: SHA256?

    /// Takes a token apart: exactly three parts of unpadded base64url, a JSON object header, a JSON
    /// payload, and every `x5c` certificate parsed. Nothing is trusted yet.
    public init(_ token: [UInt8]) throws(JWSError) {
        try self.init(token, remembered: { _ in nil })
    }

    /// The same, with the header taken from `remembered` when it knows the header's exact text
    /// (`JWSHeaderCache`: the header of a token that verified before, decoded from the same text).
    init(_ token: [UInt8], remembered: (ArraySlice<UInt8>) -> JWSHeaderCache.Entry?) throws(JWSError) {
        guard token.count <= JWSLimits.maxTokenSize else { throw .tooLarge(count: token.count) }
        let dots = ByteScan.offsets(of: UInt8(ascii: "."), in: token, 0 ..< token.count, limit: 3)
        guard dots.count == 2 else { throw .notCompactSerialization }
        let first = dots[0], second = dots[1]
        self.token = token
        headerEnd = first
        signingInputEnd = second
        let known = remembered(token[..<first])
        hashedHeader = known?.hashedPrefix
        let headerBytes = known == nil ? try Self.decodePart(token[..<first], .header) : []
        payload = try Self.decodePart(token[(first + 1) ..< second], .payload)
        signature = try Self.decodePart(token[(second + 1)...], .signature)
        if let known { header = known.header } else { header = try Self.readHeader(headerBytes) }
        do throws(JSONError) {
            _ = try JSONReader<JSONError>.document(payload) { (reader) throws(JSONError) in try reader.skipValue() }
        } catch {
            throw .invalidJSON(.payload, error)
        }
    }

    /// The token's text as bytes.
    public init(_ token: String) throws(JWSError) {
        try self.init(Array(token.utf8))
    }

    private static func decodePart(_ text: ArraySlice<UInt8>, _ part: JWSPart) throws(JWSError) -> [UInt8] {
        guard !text.isEmpty, let bytes = Base64.decodeURL(text) else { throw .invalidBase64URL(part) }
        return bytes
    }
}

extension CompactJWS {
    /// The token in `raw` when `raw` looks like one: text starting `eyJ` (base64url of `{"`), with
    /// whitespace around it removed; nil for anything else (a receipt, binary or base64). How the
    /// `receipt` tool and receipt-server's inspector tell a token from a receipt.
    public static func token(in raw: [UInt8]) -> [UInt8]? {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard let first = raw.firstIndex(where: { !isSpace($0) }), let last = raw.lastIndex(where: { !isSpace($0) }) else { return nil }
        let token = Array(raw[first ... last])
        return token.starts(with: Array("eyJ".utf8)) ? token : nil
    }

    /// The header: a JSON object (RFC 7515 §4) with `alg` a string and `x5c` an array of padded
    /// standard base64 DER certificates (§4.1.6), each parsed strictly.
    static func readHeader(_ bytes: [UInt8]) throws(JWSError) -> JWSHeader {
        var algorithm: String?, keyID: String?, type: String?, encodedChain: [String]?
        var critical = false
        var others: [String: JSONValue] = [:]
        do throws(HeaderFailure) {
            try HeaderReader.document(bytes) { (reader) throws(HeaderFailure) in
                guard try reader.peekKind() == .object else { throw .jws(.headerNotObject) }
                try reader.readObject { (name, reader) throws(HeaderFailure) in
                    switch name {
                    case "alg": algorithm = try reader.headerString(name)
                    case "kid": keyID = try reader.headerString(name)
                    case "typ": type = try reader.headerString(name)
                    case "x5c":
                        guard try reader.peekKind() == .array else { throw .jws(.invalidHeaderParameter(name.string)) }
                        var entries: [String] = []
                        try reader.readArray { (reader) throws(HeaderFailure) in entries.append(try reader.headerString(name)) }
                        encodedChain = entries
                    case "crit":
                        critical = true
                        try reader.skipValue()
                    default: try reader.keep(name, in: &others)
                    }
                }
            }
        } catch {
            switch error {
            case .jws(let error): throw error
            case .json(let error): throw .invalidJSON(.header, error)
            }
        }
        return JWSHeader(
            algorithm: algorithm, certificateChain: try encodedChain.map(certificates),
            keyID: keyID, type: type, hasCriticalParameters: critical, otherParameters: others)
    }

    /// Decodes and parses every `x5c` entry; a bad one is named by its index.
    private static func certificates(_ entries: [String]) throws(JWSError) -> [Certificate] {
        guard entries.count <= JWSLimits.maxCertificates else { throw .tooManyCertificates(count: entries.count) }
        var certificates: [Certificate] = []
        for (index, entry) in entries.enumerated() {
            guard let der = Base64.decodeStandard(Array(entry.utf8)[...]) else { throw .invalidCertificateEncoding(index: index) }
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                throw .malformedCertificate(index: index, error)
            }
        }
        return certificates
    }
}

/// What reading the header throws: its JSON's syntax errors, or a parameter of the wrong shape.
private enum HeaderFailure: JSONReadFailure {
    case json(JSONError)
    case jws(JWSError)

    init(_ error: JSONError) { self = .json(error) }
}

private typealias HeaderReader = JSONReader<HeaderFailure>

extension JSONReader<HeaderFailure> {
    /// A header parameter that must be a string.
    fileprivate mutating func headerString(_ name: JSONName) throws(HeaderFailure) -> String {
        guard try peekKind() == .string else { throw .jws(.invalidHeaderParameter(name.string)) }
        return try readString()
    }
}
