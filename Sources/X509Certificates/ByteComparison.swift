/// Equality of byte strings that are not secret (certificates), eight bytes at a time; the same
/// memory is equal at once.
enum ByteComparison {
    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        if a.baseAddress == b.baseAddress { return true }   // the same bytes (a cached certificate's)
        var i = 0
        while i + 8 <= a.count {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i += 8
        }
        while i < a.count {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }
}
