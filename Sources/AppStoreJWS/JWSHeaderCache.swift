import CryptoPrimitives
import X509Certificates

/// Headers of tokens that verified, by their exact base64url text, so that the next token with
/// the same header (every token Apple signs with one certificate carries the same `x5c` header,
/// about 5 KB) skips decoding it, reading its JSON and parsing its three certificates, and
/// resumes SHA-256 after it instead of hashing it again.
///
/// Only `JWSVerifier` inserts, and only after a token's signature and whole path verified; what
/// is kept is a pure function of the header text (the same text always decodes to the same
/// header, and SHA-256 of the same prefix always reaches the same state), so a hit changes no
/// answer: the signature is still verified over the whole signing input, and the path at the
/// token's own time. At most `capacity` headers; the set is dropped when full. Thread-safe (its
/// one dictionary is only touched under its lock).
public final class JWSHeaderCache: @unchecked Sendable {
    /// A remembered header: decoded, and SHA-256 after its text and the dot that follows it.
    struct Entry: Sendable {
        let header: JWSHeader
        let hashedPrefix: SHA256
    }

    /// Most headers kept.
    public let capacity: Int
    private let lock = HeaderCacheLock()
    private var entries: [ExactBytes: Entry] = [:]

    /// Makes an empty cache keeping at most `capacity` headers (which must be positive).
    public init(capacity: Int = 16) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// The entry for the header whose base64url text is `text`, if one is kept.
    func entry(for text: ArraySlice<UInt8>) -> Entry? {
        let key = ExactBytes(text)
        return lock.withLock { entries[key] }
    }

    /// Keeps `header`, decoded from `jws`'s first part, with SHA-256 of that part and its dot.
    func insert(_ header: JWSHeader, of jws: CompactJWS) {
        let text = jws.token[..<jws.headerEnd]
        var hasher = SHA256()
        jws.token.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<(jws.headerEnd + 1)])) }
        let key = ExactBytes(ArraySlice(Array(text)))
        let entry = Entry(header: header, hashedPrefix: hasher)
        lock.withLock {
            if entries.count >= capacity, entries[key] == nil { entries.removeAll() }
            entries[key] = entry
        }
    }

    /// Number of headers held.
    public var count: Int { lock.withLock { entries.count } }
}
