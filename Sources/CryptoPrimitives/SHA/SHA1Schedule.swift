/// The SHA-1 message schedule (FIPS 180-4 §6.1.2 step 1), four words per SIMD vector (SSE2 on
/// x86-64, NEON on arm64). Vector x[g] holds W[4g…4g+3].
enum SHA1Schedule {
    /// x0…x3: the block's sixteen words, read big-endian (§3.1).
    @inline(__always)
    static func messageWords(_ block: UnsafeRawPointer, _ group: Int) -> SIMD4<UInt32> {
        bigEndianLanes(block.loadUnaligned(fromByteOffset: 16 * group, as: SIMD4<UInt32>.self))
    }

    /// Stores W[4g…4g+3] + K into words 4g…4g+3 of `wk`, where the rounds read them.
    @inline(__always)
    static func store(_ x: SIMD4<UInt32>, _ k: UInt32, _ wk: UnsafeMutableRawPointer, _ group: Int) {
        wk.storeBytes(of: x &+ SIMD4(repeating: k), toByteOffset: 16 * group, as: SIMD4<UInt32>.self)
    }

    /// W[t…t+3] for t = 16, 20, 24, 28 from x16 = W[t−16…] … x4 = W[t−4…]: W[t] = ROTL1(W[t−3] ⊕
    /// W[t−8] ⊕ W[t−14] ⊕ W[t−16]). Lane 3 needs W[t] from lane 0: it is computed with 0 in its
    /// place, then ROTL1(W[t]) is xored in (ROTL1 distributes over ⊕).
    @inline(__always)
    static func early(_ x16: SIMD4<UInt32>, _ x12: SIMD4<UInt32>, _ x8: SIMD4<UInt32>, _ x4: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let w3 = SIMD4(x4[1], x4[2], x4[3], 0)
        let w14 = SIMD4(x16[2], x16[3], x12[0], x12[1])
        let partial = rotateLanesLeft1(w3 ^ x8 ^ w14 ^ x16)
        return partial ^ rotateLanesLeft1(SIMD4(0, 0, 0, partial[0]))
    }

    /// W[t…t+3] for t ≥ 32: W[t] = ROTL2(W[t−6] ⊕ W[t−16] ⊕ W[t−28] ⊕ W[t−32]), the §6.1.2
    /// recurrence applied to itself once (its terms cancel in pairs); no lane depends on another.
    @inline(__always)
    static func late(_ x32: SIMD4<UInt32>, _ x28: SIMD4<UInt32>, _ x16: SIMD4<UInt32>, _ x8: SIMD4<UInt32>, _ x4: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let w6 = SIMD4(x8[2], x8[3], x4[0], x4[1])
        return rotateLanesLeft1(rotateLanesLeft1(w6 ^ x16 ^ x28 ^ x32))
    }

    /// ROTL1 of every lane, as (v << 1) − (v >> 31 arithmetic): the subtraction of −1 or 0 sets bit 0
    /// to the old bit 31. Written this way, not as a shift-or, because the compiler turns the
    /// rotate pattern into four scalar rotates on SSE2, which has no vector rotate.
    @inline(__always)
    private static func rotateLanesLeft1(_ v: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let signs = SIMD4<UInt32>(truncatingIfNeeded: SIMD4<Int32>(truncatingIfNeeded: v) &>> 31)
        return (v &<< 1) &- signs
    }
}
