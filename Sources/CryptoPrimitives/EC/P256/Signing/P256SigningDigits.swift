/// The signed six-bit digits of a scalar for the constant-time comb (Booth recoding, as
/// BoringSSL's `booth_recode_w7` does for seven bits): k = Σ d_i·2^(6i) with d_i in [−32, 32],
/// i = 0 … 42. Digit i is read from bits 6i − 1 … 6i + 5 (bit −1 is 0): the seven-bit value w
/// stands for w/2 rounded up, less 64 when its top bit is set, computed with masks only.
enum P256SigningDigits {
    /// Digit `window` of k as (magnitude in 0 … 32, all ones when negative). The bit positions
    /// depend on the window only (public); nothing branches on or indexes by k's bits.
    @inline(__always)
    static func digit(_ k: LimbVector, window: Int) -> (magnitude: UInt64, negative: UInt64) {
        let w = bits(k, from: 6 &* window &- 1)
        let negative = ConstantTimeMask.fromBit(w >> 6)   // all ones when the top bit is set
        let complement = (127 &- w) & negative | w & ~negative   // 2^7 − 1 − w when negative
        let magnitude = (complement >> 1) &+ (complement & 1)
        return (magnitude, negative)
    }

    /// Bits `start` … `start` + 6 of k as a seven-bit value (bits below 0 or above 255 are 0).
    /// The branches are on `start`, a public position.
    @inline(__always)
    static func bits(_ k: LimbVector, from start: Int) -> UInt64 {
        guard start >= 0 else { return k[0] << 1 & 127 }   // window 0: bit −1 is 0
        let limb = start >> 6, offset = start & 63
        var value = k[limb] >> UInt64(offset)
        if offset > 57, limb < 3 { value |= k[limb &+ 1] << UInt64(64 &- offset) }
        return value & 127
    }
}
