/// The output of a hash function: up to 64 bytes, stored inline (no heap allocation).
///
/// A `Digest` is a collection of its bytes. `==` takes the same time whatever the contents
/// (it still returns early when the lengths differ, which are public). `description` is lower-case hex.
public struct Digest: Sendable, Hashable, RandomAccessCollection, CustomStringConvertible {
    /// The largest digest this type holds (SHA-512).
    public static let maximumByteCount = 64

    private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private let byteCount: UInt8

    /// Creates a digest of `byteCount` bytes written by `write` (bytes past `byteCount` stay zero).
    init(byteCount: Int, _ write: (UnsafeMutableRawPointer) -> Void) {
        precondition(byteCount >= 0 && byteCount <= Self.maximumByteCount)
        self.byteCount = UInt8(byteCount)
        withUnsafeMutableBytes(of: &storage) { write($0.baseAddress!) }
    }

    /// Wraps digest bytes computed elsewhere (for example a `messageDigest` attribute);
    /// `nil` when there are more than 64 of them.
    public init?<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        guard bytes.count <= Self.maximumByteCount else { return nil }
        self.init(byteCount: bytes.count) { output in
            for (offset, byte) in bytes.enumerated() { output.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self) }
        }
    }

    /// The index of the first byte (always 0).
    public var startIndex: Int { 0 }
    /// One past the last byte: the digest length.
    public var endIndex: Int { Int(byteCount) }
    /// The number of bytes (20 for SHA-1, 32 for SHA-256, …).
    public var count: Int { Int(byteCount) }

    /// The byte at `position`, which must be in `0..<count`.
    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "Digest index out of range")
        return Swift.withUnsafeBytes(of: storage) { $0[position] }
    }

    /// Calls `body` with the digest bytes (exactly `count` of them).
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let count = self.count
        return try Swift.withUnsafeBytes(of: storage) { (all) throws(E) -> R in
            try body(UnsafeRawBufferPointer(rebasing: all[0 ..< count]))
        }
    }

    /// The digest bytes as an array.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Lower-case hex, two digits per byte. (Built as bytes, then decoded:
    /// `String(unsafeUninitializedCapacity:initializingUTF8With:)` needs macOS 11 / iOS 14, and the
    /// package builds for macOS 10.13 / iOS 12, DESIGN §15.)
    public var description: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(count * 2)
        withUnsafeBytes { digest in
            for byte in digest {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Constant-time comparison of the bytes (lengths compared first).
    public static func == (lhs: Digest, rhs: Digest) -> Bool {
        lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in constantTimeEquals(left, right) } }
    }

    /// Hashes the digest bytes.
    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
