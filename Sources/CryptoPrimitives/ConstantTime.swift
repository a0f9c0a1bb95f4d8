/// Compares two byte buffers in time that depends only on their lengths.
///
/// Returns `false` at once when the lengths differ (lengths are not secret); otherwise every byte
/// pair is examined, with no early exit on the first difference.
public func constantTimeEquals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in 0 ..< a.count {
        difference |= a[index] ^ b[index]
    }
    return difference == 0
}
