/// SHA-1 chaining state and compression function (FIPS 180-4 §6.1.2).
struct SHA1State: CompressionState {
    static var blockByteCount: Int { 64 }
    static var lengthFieldByteCount: Int { 8 }

    /// FIPS 180-4 §5.3.1.
    private var h0: UInt32 = 0x67452301, h1: UInt32 = 0xefcdab89, h2: UInt32 = 0x98badcfe
    private var h3: UInt32 = 0x10325476, h4: UInt32 = 0xc3d2e1f0

    func store(into output: UnsafeMutableRawPointer, byteCount: Int) {
        let words = (h0.bigEndian, h1.bigEndian, h2.bigEndian, h3.bigEndian, h4.bigEndian)
        withUnsafeBytes(of: words) { output.copyMemory(from: $0.baseAddress!, byteCount: byteCount) }
    }

    /// The 80 rounds, unrolled; the five working variables rotate roles instead of moving.
    ///
    /// The message schedule (§6.1.2 step 1) runs four words at a time in SIMD lanes (see
    /// `SHA1Schedule`), each group four rounds ahead of its use, and lands with K[t] added in
    /// an 80-word stack buffer `wk`; the rounds add W[t] + K[t] straight from memory.
    mutating func compress(_ blocks: UnsafeRawPointer, count: Int) {
        withUnsafeTemporaryAllocation(of: SIMD4<UInt32>.self, capacity: 20) { buffer in
            let wk = UnsafeMutableRawPointer(buffer.baseAddress!)
            var block = blocks
            for _ in 0 ..< count {
                compressBlock(block, wk)
                block += 64
            }
        }
    }

    /// One block. Group g (words 4g…4g+3) takes K (§4.2.1) of its rounds: 5a827999 for t = 0…19,
    /// 6ed9eba1 for 20…39, 8f1bbcdc for 40…59, ca62c1d6 for 60…79.
    @inline(__always)
    private mutating func compressBlock(_ block: UnsafeRawPointer, _ wk: UnsafeMutableRawPointer) {
        let x0 = SHA1Schedule.messageWords(block, 0)
        SHA1Schedule.store(x0, 0x5a827999, wk, 0)
        let x1 = SHA1Schedule.messageWords(block, 1)
        SHA1Schedule.store(x1, 0x5a827999, wk, 1)
        let x2 = SHA1Schedule.messageWords(block, 2)
        SHA1Schedule.store(x2, 0x5a827999, wk, 2)
        let x3 = SHA1Schedule.messageWords(block, 3)
        SHA1Schedule.store(x3, 0x5a827999, wk, 3)
        var a = h0, b = h1, c = h2, d = h3, e = h4
        let x4 = SHA1Schedule.early(x0, x1, x2, x3)
        SHA1Schedule.store(x4, 0x5a827999, wk, 4)
        round0(a, &b, c, d, &e, wk, 0)
        round0(e, &a, b, c, &d, wk, 1)
        round0(d, &e, a, b, &c, wk, 2)
        round0(c, &d, e, a, &b, wk, 3)
        let x5 = SHA1Schedule.early(x1, x2, x3, x4)
        SHA1Schedule.store(x5, 0x6ed9eba1, wk, 5)
        round0(b, &c, d, e, &a, wk, 4)
        round0(a, &b, c, d, &e, wk, 5)
        round0(e, &a, b, c, &d, wk, 6)
        round0(d, &e, a, b, &c, wk, 7)
        let x6 = SHA1Schedule.early(x2, x3, x4, x5)
        SHA1Schedule.store(x6, 0x6ed9eba1, wk, 6)
        round0(c, &d, e, a, &b, wk, 8)
        round0(b, &c, d, e, &a, wk, 9)
        round0(a, &b, c, d, &e, wk, 10)
        round0(e, &a, b, c, &d, wk, 11)
        let x7 = SHA1Schedule.early(x3, x4, x5, x6)
        SHA1Schedule.store(x7, 0x6ed9eba1, wk, 7)
        round0(d, &e, a, b, &c, wk, 12)
        round0(c, &d, e, a, &b, wk, 13)
        round0(b, &c, d, e, &a, wk, 14)
        round0(a, &b, c, d, &e, wk, 15)
        let x8 = SHA1Schedule.late(x0, x1, x4, x6, x7)
        SHA1Schedule.store(x8, 0x6ed9eba1, wk, 8)
        round0(e, &a, b, c, &d, wk, 16)
        round0(d, &e, a, b, &c, wk, 17)
        round0(c, &d, e, a, &b, wk, 18)
        round0(b, &c, d, e, &a, wk, 19)
        let x9 = SHA1Schedule.late(x1, x2, x5, x7, x8)
        SHA1Schedule.store(x9, 0x6ed9eba1, wk, 9)
        round1(a, &b, c, d, &e, wk, 20)
        round1(e, &a, b, c, &d, wk, 21)
        round1(d, &e, a, b, &c, wk, 22)
        round1(c, &d, e, a, &b, wk, 23)
        let x10 = SHA1Schedule.late(x2, x3, x6, x8, x9)
        SHA1Schedule.store(x10, 0x8f1bbcdc, wk, 10)
        round1(b, &c, d, e, &a, wk, 24)
        round1(a, &b, c, d, &e, wk, 25)
        round1(e, &a, b, c, &d, wk, 26)
        round1(d, &e, a, b, &c, wk, 27)
        let x11 = SHA1Schedule.late(x3, x4, x7, x9, x10)
        SHA1Schedule.store(x11, 0x8f1bbcdc, wk, 11)
        round1(c, &d, e, a, &b, wk, 28)
        round1(b, &c, d, e, &a, wk, 29)
        round1(a, &b, c, d, &e, wk, 30)
        round1(e, &a, b, c, &d, wk, 31)
        let x12 = SHA1Schedule.late(x4, x5, x8, x10, x11)
        SHA1Schedule.store(x12, 0x8f1bbcdc, wk, 12)
        round1(d, &e, a, b, &c, wk, 32)
        round1(c, &d, e, a, &b, wk, 33)
        round1(b, &c, d, e, &a, wk, 34)
        round1(a, &b, c, d, &e, wk, 35)
        let x13 = SHA1Schedule.late(x5, x6, x9, x11, x12)
        SHA1Schedule.store(x13, 0x8f1bbcdc, wk, 13)
        round1(e, &a, b, c, &d, wk, 36)
        round1(d, &e, a, b, &c, wk, 37)
        round1(c, &d, e, a, &b, wk, 38)
        round1(b, &c, d, e, &a, wk, 39)
        let x14 = SHA1Schedule.late(x6, x7, x10, x12, x13)
        SHA1Schedule.store(x14, 0x8f1bbcdc, wk, 14)
        round2(a, &b, c, d, &e, wk, 40)
        round2(e, &a, b, c, &d, wk, 41)
        round2(d, &e, a, b, &c, wk, 42)
        round2(c, &d, e, a, &b, wk, 43)
        let x15 = SHA1Schedule.late(x7, x8, x11, x13, x14)
        SHA1Schedule.store(x15, 0xca62c1d6, wk, 15)
        round2(b, &c, d, e, &a, wk, 44)
        round2(a, &b, c, d, &e, wk, 45)
        round2(e, &a, b, c, &d, wk, 46)
        round2(d, &e, a, b, &c, wk, 47)
        let x16 = SHA1Schedule.late(x8, x9, x12, x14, x15)
        SHA1Schedule.store(x16, 0xca62c1d6, wk, 16)
        round2(c, &d, e, a, &b, wk, 48)
        round2(b, &c, d, e, &a, wk, 49)
        round2(a, &b, c, d, &e, wk, 50)
        round2(e, &a, b, c, &d, wk, 51)
        let x17 = SHA1Schedule.late(x9, x10, x13, x15, x16)
        SHA1Schedule.store(x17, 0xca62c1d6, wk, 17)
        round2(d, &e, a, b, &c, wk, 52)
        round2(c, &d, e, a, &b, wk, 53)
        round2(b, &c, d, e, &a, wk, 54)
        round2(a, &b, c, d, &e, wk, 55)
        let x18 = SHA1Schedule.late(x10, x11, x14, x16, x17)
        SHA1Schedule.store(x18, 0xca62c1d6, wk, 18)
        round2(e, &a, b, c, &d, wk, 56)
        round2(d, &e, a, b, &c, wk, 57)
        round2(c, &d, e, a, &b, wk, 58)
        round2(b, &c, d, e, &a, wk, 59)
        let x19 = SHA1Schedule.late(x11, x12, x15, x17, x18)
        SHA1Schedule.store(x19, 0xca62c1d6, wk, 19)
        round3(a, &b, c, d, &e, wk, 60)
        round3(e, &a, b, c, &d, wk, 61)
        round3(d, &e, a, b, &c, wk, 62)
        round3(c, &d, e, a, &b, wk, 63)
        round3(b, &c, d, e, &a, wk, 64)
        round3(a, &b, c, d, &e, wk, 65)
        round3(e, &a, b, c, &d, wk, 66)
        round3(d, &e, a, b, &c, wk, 67)
        round3(c, &d, e, a, &b, wk, 68)
        round3(b, &c, d, e, &a, wk, 69)
        round3(a, &b, c, d, &e, wk, 70)
        round3(e, &a, b, c, &d, wk, 71)
        round3(d, &e, a, b, &c, wk, 72)
        round3(c, &d, e, a, &b, wk, 73)
        round3(b, &c, d, e, &a, wk, 74)
        round3(a, &b, c, d, &e, wk, 75)
        round3(e, &a, b, c, &d, wk, 76)
        round3(d, &e, a, b, &c, wk, 77)
        round3(c, &d, e, a, &b, wk, 78)
        round3(b, &c, d, e, &a, wk, 79)
        h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e
    }
}

/// One round (§6.1.2 step 3) for rotated variable names: the new `a` goes to `e`, `b` becomes
/// ROTL30(b). `wk` holds W[t] + K[t] at word `t`.
@inline(__always)
private func step(_ a: UInt32, _ b: inout UInt32, _ e: inout UInt32, _ f: UInt32, _ wk: UnsafeMutableRawPointer, _ t: Int) {
    e = rotateLeft(a, 5) &+ f &+ e &+ wk.load(fromByteOffset: 4 * t, as: UInt32.self)
    b = rotateLeft(b, 30)
}

/// Rounds 0–19: Ch (§4.1.1).
@inline(__always)
private func round0(_ a: UInt32, _ b: inout UInt32, _ c: UInt32, _ d: UInt32, _ e: inout UInt32, _ wk: UnsafeMutableRawPointer, _ t: Int) {
    step(a, &b, &e, d ^ (b & (c ^ d)), wk, t)
}

/// Rounds 20–39: Parity.
@inline(__always)
private func round1(_ a: UInt32, _ b: inout UInt32, _ c: UInt32, _ d: UInt32, _ e: inout UInt32, _ wk: UnsafeMutableRawPointer, _ t: Int) {
    step(a, &b, &e, b ^ c ^ d, wk, t)
}

/// Rounds 40–59: Maj. Maj(b, c, d) = (b ∧ c) + (d ∧ (b ⊕ c)): the two terms never share a bit,
/// so they can be added into `e` separately.
@inline(__always)
private func round2(_ a: UInt32, _ b: inout UInt32, _ c: UInt32, _ d: UInt32, _ e: inout UInt32, _ wk: UnsafeMutableRawPointer, _ t: Int) {
    step(a, &b, &e, (b & c) &+ (d & (b ^ c)), wk, t)
}

/// Rounds 60–79: Parity.
@inline(__always)
private func round3(_ a: UInt32, _ b: inout UInt32, _ c: UInt32, _ d: UInt32, _ e: inout UInt32, _ wk: UnsafeMutableRawPointer, _ t: Int) {
    step(a, &b, &e, b ^ c ^ d, wk, t)
}
