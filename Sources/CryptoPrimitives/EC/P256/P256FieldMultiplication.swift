/// Multiplication and squaring in the P-256 field, Montgomery form with R = 2^256.
///
/// Both use Montgomery reduction rounds t = (t + q·p)/2^64 specialised to p's form (Gueron and
/// Krasnov, "Fast prime field elliptic-curve cryptography with 256-bit primes", J. Cryptographic
/// Engineering 5, 2015; OpenSSL's `ecp_nistz256`): p ≡ −1 (mod 2^64), so the per-limb factor
/// −p⁻¹ mod 2^64 is 1 and q is simply the low limb; and q·p = q·2^256 − q·2^224 + q·2^192 +
/// q·2^96 − q, so adding q·p takes two shifts and one 64×64-bit multiplication (by p's top limb)
/// instead of four.
///
/// Limb products and carries go through `multipliedAdding` and `addingWithCarry`
/// (WordArithmetic.swift), which the compiler lowers to `mul`, `add`, `adc` with the carry kept in
/// the flags, as it did the standard library's 128-bit integer (which needs macOS 15 / iOS 18; a
/// carry spelled as a comparison, or an overflow bit turned into an integer by `? 1 : 0`, came out
/// as `setb` and `movzbl` after every addition, or as branches). Measured with callgrind: the
/// interleaved product (CIOS) and a full product followed by four rounds cost the same; the
/// squaring forms its product in full to share the cross products.
extension P256FieldElement {
    /// a·b·R⁻¹ mod p, operand scanning with the reduction interleaved (CIOS, Koç, Acar, Kaliski,
    /// IEEE Micro 1996, §3): each round adds a·b[i] to the five-limb t, then t = (t + q·p)/2^64
    /// with q = t0. t stays below 2p, so five limbs plus a carry bit hold it, few enough to stay
    /// in registers.
    #if hasFeature(Embedded)
        @inline(never)   // Embedded: LLVM time and wasm size (Wasm/README.md, "How it is built")
    #else
        @inline(__always)
    #endif
    static func * (a: Self, b: Self) -> Self {
        var c: UInt64 = 0
        var t0 = a.l0.multipliedAdding(b.l0, 0, &c)
        var t1 = a.l1.multipliedAdding(b.l0, 0, &c)
        var t2 = a.l2.multipliedAdding(b.l0, 0, &c)
        var t3 = a.l3.multipliedAdding(b.l0, 0, &c)
        var t4 = c, t5: UInt64 = 0
        reductionStep(&t0, &t1, &t2, &t3, &t4, t5)
        multiplyRound(a, b.l1, &t0, &t1, &t2, &t3, &t4, &t5)
        reductionStep(&t0, &t1, &t2, &t3, &t4, t5)
        multiplyRound(a, b.l2, &t0, &t1, &t2, &t3, &t4, &t5)
        reductionStep(&t0, &t1, &t2, &t3, &t4, t5)
        multiplyRound(a, b.l3, &t0, &t1, &t2, &t3, &t4, &t5)
        reductionStep(&t0, &t1, &t2, &t3, &t4, t5)
        return reduced(t0, t1, t2, t3, carry: t4)
    }

    /// (t0 … t4, t5) += a·bi.
    @inline(__always)
    static func multiplyRound(
        _ a: Self, _ bi: UInt64, _ t0: inout UInt64, _ t1: inout UInt64, _ t2: inout UInt64, _ t3: inout UInt64,
        _ t4: inout UInt64, _ t5: inout UInt64
    ) {
        var c: UInt64 = 0
        t0 = a.l0.multipliedAdding(bi, t0, &c)
        t1 = a.l1.multipliedAdding(bi, t1, &c)
        t2 = a.l2.multipliedAdding(bi, t2, &c)
        t3 = a.l3.multipliedAdding(bi, t3, &c)
        var top: UInt64 = 0
        t4 = t4.addingWithCarry(c, &top)
        t5 = top
    }

    /// t = (t + q·p)/2^64 with q = t0, on t0 … t4 and the top bit t5 (the round of `reduce`
    /// with two more limbs); the result, below 2p, is in t0 … t3 and the bit above them in t4.
    @inline(__always)
    static func reductionStep(
        _ t0: inout UInt64, _ t1: inout UInt64, _ t2: inout UInt64, _ t3: inout UInt64, _ t4: inout UInt64, _ t5: UInt64
    ) {
        let q = t0
        var carry: UInt64 = 0
        t0 = t1.addingWithCarry(q << 32, &carry)
        t1 = t2.addingWithCarry(q >> 32, &carry)
        t2 = q.multipliedAdding(p3, t3, &carry)   // carry: the high word now
        var top: UInt64 = 0
        t3 = t4.addingWithCarry(carry, &top)
        t4 = t5 &+ top
    }

    /// a²·R⁻¹ mod p: each cross product a[i]·a[j] (i < j) once and doubled, plus the squares
    /// a[i]² (10 limb products instead of 16), giving H·R + L; then L·R⁻¹ by four rounds, which
    /// is at most p, plus H (below p, since a < p), less p once if needed.
    #if hasFeature(Embedded)
        @inline(never)   // Embedded: LLVM time and wasm size (Wasm/README.md, "How it is built")
    #else
        @inline(__always)
    #endif
    func squared() -> Self {
        var c: UInt64 = 0
        var r1 = l0.multipliedAdding(l1, 0, &c)
        var r2 = l0.multipliedAdding(l2, 0, &c)
        var r3 = l0.multipliedAdding(l3, 0, &c)
        var r4 = c
        c = 0
        r3 = l1.multipliedAdding(l2, r3, &c)
        r4 = l1.multipliedAdding(l3, r4, &c)
        var r5 = c
        c = 0
        r5 = l2.multipliedAdding(l3, r5, &c)
        var r6 = c
        // Double the cross products (their sum is below a²/2: no bit is lost).
        var r7 = r6 >> 63
        r6 = r6 << 1 | r5 >> 63
        r5 = r5 << 1 | r4 >> 63
        r4 = r4 << 1 | r3 >> 63
        r3 = r3 << 1 | r2 >> 63
        r2 = r2 << 1 | r1 >> 63
        r1 = r1 << 1
        // Add the squares a[i]² at r[2i], r[2i + 1].
        let s0 = l0.fullWidthProduct(l0), s1 = l1.fullWidthProduct(l1)
        let s2 = l2.fullWidthProduct(l2), s3 = l3.fullWidthProduct(l3)
        let r0 = s0.low
        c = 0
        r1 = r1.addingWithCarry(s0.high, &c)
        r2 = r2.addingWithCarry(s1.low, &c)
        r3 = r3.addingWithCarry(s1.high, &c)
        r4 = r4.addingWithCarry(s2.low, &c)
        r5 = r5.addingWithCarry(s2.high, &c)
        r6 = r6.addingWithCarry(s3.low, &c)
        r7 = r7 &+ s3.high &+ c
        let (t0, t1, t2, t3) = Self.reduce(r0, r1, r2, r3)
        return Self.addHigh(t0, t1, t2, t3, r4, r5, r6, r7)
    }

    /// L·R⁻¹ for the low half L = (t0, t1, t2, t3): four rounds t = (t + q·p)/2^64 with q the
    /// low limb. In each round t + q·p has a zero low limb (t0 − q); the next limb gains q·2^64
    /// from q·p0 = q·2^64 − q plus q·p1 = q·2^32 − q, i.e. q·2^32 across two limbs; p2 = 0; q·p3
    /// lands two limbs up; then everything moves down one limb. The result is at most p.
    @inline(__always)
    static func reduce(_ t0: UInt64, _ t1: UInt64, _ t2: UInt64, _ t3: UInt64) -> (UInt64, UInt64, UInt64, UInt64) {
        var t = reductionRound(t0, t1, t2, t3)
        t = reductionRound(t.0, t.1, t.2, t.3)
        t = reductionRound(t.0, t.1, t.2, t.3)
        return reductionRound(t.0, t.1, t.2, t.3)
    }

    /// One round with q = t0: (t1 + q·2^32 + t2·2^64 + (t3 + q·p3)·2^128) moved down one limb.
    @inline(__always)
    static func reductionRound(_ q: UInt64, _ t1: UInt64, _ t2: UInt64, _ t3: UInt64) -> (UInt64, UInt64, UInt64, UInt64) {
        var carry: UInt64 = 0
        let u1 = t1.addingWithCarry(q << 32, &carry)
        let u2 = t2.addingWithCarry(q >> 32, &carry)
        let u3 = q.multipliedAdding(p3, t3, &carry)   // below 2^128: carry is its high word
        return (u1, u2, u3, carry)
    }

    /// (t0 … t3) + (h0 … h3), below 2p, reduced below p.
    @inline(__always)
    static func addHigh(
        _ t0: UInt64, _ t1: UInt64, _ t2: UInt64, _ t3: UInt64, _ h0: UInt64, _ h1: UInt64, _ h2: UInt64, _ h3: UInt64
    ) -> Self {
        var carry: UInt64 = 0
        let s0 = t0.addingWithCarry(h0, &carry)
        let s1 = t1.addingWithCarry(h1, &carry)
        let s2 = t2.addingWithCarry(h2, &carry)
        let s3 = t3.addingWithCarry(h3, &carry)
        return reduced(s0, s1, s2, s3, carry: carry)
    }
}
