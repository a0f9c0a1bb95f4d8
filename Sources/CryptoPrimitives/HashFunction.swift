/// A streaming hash function of the SHA family (FIPS 180-4).
///
/// Conforming types are small values: copy one to fork a computation. `finalize()` does not
/// change the hasher, so more input may follow a look at an intermediate digest.
public protocol HashFunction: Sendable {
    /// The digest length in bytes.
    static var digestByteCount: Int { get }
    /// A hasher that has seen no input.
    init()
    /// Feeds bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer)
    /// The digest of everything fed so far.
    func finalize() -> Digest
}

extension HashFunction {
    /// Feeds the bytes of an array.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Feeds any collection of bytes: in place when it is contiguous, else copied in chunks.
    public mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let wasContiguous: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        guard wasContiguous == nil else { return }
        var chunk:
            (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let chunkByteCount = MemoryLayout.size(ofValue: chunk)
        var filled = 0
        for byte in bytes {
            withUnsafeMutableBytes(of: &chunk) { $0[filled] = byte }
            filled += 1
            if filled == chunkByteCount {
                withUnsafeBytes(of: &chunk) { update($0) }
                filled = 0
            }
        }
        withUnsafeBytes(of: &chunk) { update(UnsafeRawBufferPointer(rebasing: $0[0 ..< filled])) }
    }

    /// The digest of `bytes` in one call.
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> Digest {
        var hasher = Self()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of the bytes of an array in one call.
    public static func hash(_ bytes: [UInt8]) -> Digest {
        bytes.withUnsafeBytes { hash($0) }
    }
}
