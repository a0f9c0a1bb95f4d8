/// Width-w non-adjacent form (Hankerson, Menezes, Vanstone, "Guide to Elliptic Curve
/// Cryptography", Alg. 3.35): digits that are zero or odd with |d| < 2^w, at most one non-zero
/// digit in any w + 1 consecutive ones, Σ d[i]·2^i = the scalar.
///
/// The digits come out as Alg. 3.35's (and BoringSSL's `ec_compute_wNAF`'s), but the recoder
/// jumps over runs of zero digits instead of stepping bit by bit: after a non-zero digit the
/// next w digits are zero, and a run of zero digits ends at the scalar's next set bit (or, while
/// a borrowed 1 is carried up, at its next clear bit). Verification handles public scalars, so
/// the data-dependent loop is acceptable.
enum WNAF {
    /// Writes the digits of `scalar` (below 2^bitCount) into `digits` (bitCount + 1 of them) and
    /// returns the index of the highest non-zero digit, or −1 for zero.
    static func recode(_ scalar: LimbVector, bitCount: Int, width: Int, into digits: UnsafeMutableBufferPointer<Int8>) -> Int {
        precondition(width >= 2 && width <= 7 && digits.count == bitCount + 1 && bitCount <= 64 * LimbVector.capacity)
        digits.update(repeating: 0)
        let modulus = 1 << (width + 1), half = 1 << width
        var index = 0, carry = 0, top = -1
        while true {
            // The next position where the rest of the scalar plus the carry is odd: the next set
            // bit without a carry, the next clear bit with one (every bit from bitCount up is clear).
            index = nextBit(of: scalar, from: index, bitCount: bitCount, set: carry == 0)
            guard index <= bitCount else { return top }
            // The w + 1 bits from here, plus the carry: odd; the digit is their signed residue.
            let window = bits(of: scalar, at: index, count: width + 1, bitCount: bitCount) + carry
            let digit = window >= half ? window - modulus : window
            digits[index] = Int8(truncatingIfNeeded: digit)
            top = index
            // window − digit is 0 or 2^(w+1): the next w digits are zero, and a negative digit
            // carries 1 into position index + w + 1.
            carry = digit < 0 ? 1 : 0
            index += width + 1
        }
    }

    /// The lowest position at or above `start` whose bit is set (`set`) or clear (`!set`), where
    /// bits at bitCount and above count as clear (whatever the limbs hold there); bitCount + 1
    /// when there is none (only for set bits).
    @inline(__always)
    private static func nextBit(of scalar: LimbVector, from start: Int, bitCount: Int, set: Bool) -> Int {
        var position = start
        while position < bitCount {
            let limb = scalar[position >> 6], shift = UInt64(position & 63)
            let word = (set ? limb : ~limb) >> shift
            if word != 0 {
                let found = position + word.trailingZeroBitCount
                return found < bitCount ? found : (set ? bitCount + 1 : bitCount)
            }
            position = (position | 63) + 1
        }
        return set ? bitCount + 1 : max(start, bitCount)
    }

    /// Bits index … index + count − 1 of the scalar (count ≤ 8), those at bitCount and above
    /// read as zero (whatever the limbs hold there, as `nextBit` reads them).
    @inline(__always)
    private static func bits(of scalar: LimbVector, at index: Int, count: Int, bitCount: Int) -> Int {
        guard index < bitCount else { return 0 }
        let limbIndex = index >> 6, shift = UInt64(index & 63)
        var word = scalar[limbIndex] >> shift
        if shift > 64 - UInt64(count), limbIndex + 1 < LimbVector.capacity {
            word |= scalar[limbIndex + 1] << (64 - shift)
        }
        return Int(truncatingIfNeeded: word) & ((1 << min(count, bitCount - index)) - 1)
    }
}
