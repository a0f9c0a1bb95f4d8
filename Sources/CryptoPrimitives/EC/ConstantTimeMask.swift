/// Masks for branch-free selection: all ones for true, zero for false, computed with arithmetic
/// only (BoringSSL `crypto/internal.h`, `constant_time_is_zero_w` and friends).
enum ConstantTimeMask {
    /// All ones when `value` is zero: (value | −value) has its top bit set exactly when value ≠ 0.
    @inline(__always)
    static func isZero(_ value: UInt64) -> UInt64 {
        ((value | (0 &- value)) >> 63) &- 1
    }

    /// All ones when a = b.
    @inline(__always)
    static func equal(_ a: UInt64, _ b: UInt64) -> UInt64 {
        isZero(a ^ b)
    }

    /// All ones when bit is 1 (bit is 0 or 1).
    @inline(__always)
    static func fromBit(_ bit: UInt64) -> UInt64 {
        0 &- bit
    }
}
