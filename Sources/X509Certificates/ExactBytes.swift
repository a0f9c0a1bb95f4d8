/// A byte string as a dictionary key that matches only the very same bytes: it hashes the length
/// and the last 32 bytes, and compares every byte on a hit. For a certificate those bytes are
/// part of its signature, which tells any two apart; token headers that end with the same root
/// certificate hash alike, which costs only a failed comparison each in the header cache's 16
/// entries. For caches of what verified (`VerifiedLinkCache`, AppStoreJWS's header cache), where
/// a key that matched different bytes would let them skip a check.
public struct ExactBytes: Hashable, Sendable {
    /// The bytes (a slice: a key made for a lookup need not copy them).
    public let bytes: ArraySlice<UInt8>

    /// The key for `bytes`.
    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    public static func == (a: ExactBytes, b: ExactBytes) -> Bool {
        a.bytes.withUnsafeBytes { x in b.bytes.withUnsafeBytes { y in ByteComparison.equal(x, y) } }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.suffix(32).withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
