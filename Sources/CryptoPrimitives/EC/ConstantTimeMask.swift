/// Zero, held where the optimizer cannot know it (package visibility: as far as the compiler
/// knows, other modules may store to it). XOR-ed into a 0-or-1 bit before it becomes a mask, it
/// keeps LLVM from seeing the mask as a comparison and turning a masked selection back into a
/// branch, as it did in the signer's table look-up (found by lackey: the loads were skipped for
/// all entries but the chosen one). BoringSSL's `value_barrier_w`, libsecp256k1's `volatile`.
package nonisolated(unsafe) var constantTimeBarrier: UInt64 = 0

/// Masks for branch-free selection: all ones for true, zero for false, computed with arithmetic
/// only (BoringSSL `crypto/internal.h`, `constant_time_is_zero_w` and friends), each through
/// `constantTimeBarrier`.
enum ConstantTimeMask {
    /// All ones when `value` is zero: (value | −value) has its top bit set exactly when value ≠ 0.
    @inline(__always)
    static func isZero(_ value: UInt64) -> UInt64 {
        (((value | (0 &- value)) >> 63) ^ constantTimeBarrier) &- 1
    }

    /// All ones when `bit` (0 or 1) is 1.
    @inline(__always)
    static func fromBit(_ bit: UInt64) -> UInt64 {
        0 &- (bit ^ constantTimeBarrier)
    }

    /// All ones when a = b.
    @inline(__always)
    static func equal(_ a: UInt64, _ b: UInt64) -> UInt64 {
        isZero(a ^ b)
    }
}

extension LimbVector {
    /// self − other over `count` (4 or 6) limbs, and all ones when it borrowed (self < other),
    /// with the borrow of each limb computed by bit operations only (Hacker's Delight §2-16:
    /// borrow = ((¬a ∧ b) ∨ (¬(a ⊕ b) ∧ d)) >> 63). `subtracting(_:count:)` spells the borrow as
    /// comparisons, and where only the borrow is used the compiler made a chain of compares and
    /// branches of them (found by callgrind: one instruction more for some nonces); for secrets,
    /// use this.
    @inline(__always)
    package func subtractingInConstantTime(_ other: LimbVector, count: Int) -> (difference: LimbVector, borrowMask: UInt64) {
        var borrow: UInt64 = 0
        @inline(__always) func limb(_ a: UInt64, _ b: UInt64) -> UInt64 {
            let d = a &- b &- borrow
            borrow = ((~a & b) | (~(a ^ b) & d)) >> 63
            return d
        }
        let a = storage, b = other.storage
        let d0 = limb(a.0, b.0), d1 = limb(a.1, b.1), d2 = limb(a.2, b.2), d3 = limb(a.3, b.3)
        let d4 = count > 4 ? limb(a.4, b.4) : 0
        let d5 = count > 4 ? limb(a.5, b.5) : 0
        return (LimbVector(storage: (d0, d1, d2, d3, d4, d5)), ConstantTimeMask.fromBit(borrow))
    }

    /// All ones when the low `count` limbs are zero, by bit operations only.
    @inline(__always)
    package func isZeroMask(count: Int) -> UInt64 {
        let s = storage
        return ConstantTimeMask.isZero(s.0 | s.1 | s.2 | s.3 | (count > 4 ? s.4 | s.5 : 0))
    }
}
