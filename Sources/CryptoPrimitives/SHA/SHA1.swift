/// SHA-1 (FIPS 180-4 §6.1). Broken for collision resistance; kept because legacy receipts and
/// certificates are signed with it.
public struct SHA1: HashFunction {
    /// 20.
    public static var digestByteCount: Int { 20 }

    private var core = BlockHasher(SHA1State(), digestByteCount: 20)

    /// A hasher that has seen no input.
    public init() {}

    /// Feeds bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }

    /// The digest of everything fed so far; the hasher is left unchanged.
    public func finalize() -> Digest { core.finalize() }
}

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

    /// The 80 rounds, unrolled; the five working variables rotate roles instead of moving, and the
    /// message schedule (§6.1.2 step 1) is computed in place in a 16-word window.
    mutating func compress(_ blocks: UnsafeRawPointer, count: Int) {
        var block = blocks
        for _ in 0..<count {
            @inline(__always) func word(_ index: Int) -> UInt32 { bigEndianWord(block, index, as: UInt32.self) }
            var w0 = word(0), w1 = word(1), w2 = word(2), w3 = word(3)
            var w4 = word(4), w5 = word(5), w6 = word(6), w7 = word(7)
            var w8 = word(8), w9 = word(9), w10 = word(10), w11 = word(11)
            var w12 = word(12), w13 = word(13), w14 = word(14), w15 = word(15)
            var a = h0, b = h1, c = h2, d = h3, e = h4
            round0(a, &b, c, d, &e, w0)
            round0(e, &a, b, c, &d, w1)
            round0(d, &e, a, b, &c, w2)
            round0(c, &d, e, a, &b, w3)
            round0(b, &c, d, e, &a, w4)
            round0(a, &b, c, d, &e, w5)
            round0(e, &a, b, c, &d, w6)
            round0(d, &e, a, b, &c, w7)
            round0(c, &d, e, a, &b, w8)
            round0(b, &c, d, e, &a, w9)
            round0(a, &b, c, d, &e, w10)
            round0(e, &a, b, c, &d, w11)
            round0(d, &e, a, b, &c, w12)
            round0(c, &d, e, a, &b, w13)
            round0(b, &c, d, e, &a, w14)
            round0(a, &b, c, d, &e, w15)
            w0 = schedule(w0, w2, w8, w13)
            round0(e, &a, b, c, &d, w0)
            w1 = schedule(w1, w3, w9, w14)
            round0(d, &e, a, b, &c, w1)
            w2 = schedule(w2, w4, w10, w15)
            round0(c, &d, e, a, &b, w2)
            w3 = schedule(w3, w5, w11, w0)
            round0(b, &c, d, e, &a, w3)
            w4 = schedule(w4, w6, w12, w1)
            round1(a, &b, c, d, &e, w4)
            w5 = schedule(w5, w7, w13, w2)
            round1(e, &a, b, c, &d, w5)
            w6 = schedule(w6, w8, w14, w3)
            round1(d, &e, a, b, &c, w6)
            w7 = schedule(w7, w9, w15, w4)
            round1(c, &d, e, a, &b, w7)
            w8 = schedule(w8, w10, w0, w5)
            round1(b, &c, d, e, &a, w8)
            w9 = schedule(w9, w11, w1, w6)
            round1(a, &b, c, d, &e, w9)
            w10 = schedule(w10, w12, w2, w7)
            round1(e, &a, b, c, &d, w10)
            w11 = schedule(w11, w13, w3, w8)
            round1(d, &e, a, b, &c, w11)
            w12 = schedule(w12, w14, w4, w9)
            round1(c, &d, e, a, &b, w12)
            w13 = schedule(w13, w15, w5, w10)
            round1(b, &c, d, e, &a, w13)
            w14 = schedule(w14, w0, w6, w11)
            round1(a, &b, c, d, &e, w14)
            w15 = schedule(w15, w1, w7, w12)
            round1(e, &a, b, c, &d, w15)
            w0 = schedule(w0, w2, w8, w13)
            round1(d, &e, a, b, &c, w0)
            w1 = schedule(w1, w3, w9, w14)
            round1(c, &d, e, a, &b, w1)
            w2 = schedule(w2, w4, w10, w15)
            round1(b, &c, d, e, &a, w2)
            w3 = schedule(w3, w5, w11, w0)
            round1(a, &b, c, d, &e, w3)
            w4 = schedule(w4, w6, w12, w1)
            round1(e, &a, b, c, &d, w4)
            w5 = schedule(w5, w7, w13, w2)
            round1(d, &e, a, b, &c, w5)
            w6 = schedule(w6, w8, w14, w3)
            round1(c, &d, e, a, &b, w6)
            w7 = schedule(w7, w9, w15, w4)
            round1(b, &c, d, e, &a, w7)
            w8 = schedule(w8, w10, w0, w5)
            round2(a, &b, c, d, &e, w8)
            w9 = schedule(w9, w11, w1, w6)
            round2(e, &a, b, c, &d, w9)
            w10 = schedule(w10, w12, w2, w7)
            round2(d, &e, a, b, &c, w10)
            w11 = schedule(w11, w13, w3, w8)
            round2(c, &d, e, a, &b, w11)
            w12 = schedule(w12, w14, w4, w9)
            round2(b, &c, d, e, &a, w12)
            w13 = schedule(w13, w15, w5, w10)
            round2(a, &b, c, d, &e, w13)
            w14 = schedule(w14, w0, w6, w11)
            round2(e, &a, b, c, &d, w14)
            w15 = schedule(w15, w1, w7, w12)
            round2(d, &e, a, b, &c, w15)
            w0 = schedule(w0, w2, w8, w13)
            round2(c, &d, e, a, &b, w0)
            w1 = schedule(w1, w3, w9, w14)
            round2(b, &c, d, e, &a, w1)
            w2 = schedule(w2, w4, w10, w15)
            round2(a, &b, c, d, &e, w2)
            w3 = schedule(w3, w5, w11, w0)
            round2(e, &a, b, c, &d, w3)
            w4 = schedule(w4, w6, w12, w1)
            round2(d, &e, a, b, &c, w4)
            w5 = schedule(w5, w7, w13, w2)
            round2(c, &d, e, a, &b, w5)
            w6 = schedule(w6, w8, w14, w3)
            round2(b, &c, d, e, &a, w6)
            w7 = schedule(w7, w9, w15, w4)
            round2(a, &b, c, d, &e, w7)
            w8 = schedule(w8, w10, w0, w5)
            round2(e, &a, b, c, &d, w8)
            w9 = schedule(w9, w11, w1, w6)
            round2(d, &e, a, b, &c, w9)
            w10 = schedule(w10, w12, w2, w7)
            round2(c, &d, e, a, &b, w10)
            w11 = schedule(w11, w13, w3, w8)
            round2(b, &c, d, e, &a, w11)
            w12 = schedule(w12, w14, w4, w9)
            round3(a, &b, c, d, &e, w12)
            w13 = schedule(w13, w15, w5, w10)
            round3(e, &a, b, c, &d, w13)
            w14 = schedule(w14, w0, w6, w11)
            round3(d, &e, a, b, &c, w14)
            w15 = schedule(w15, w1, w7, w12)
            round3(c, &d, e, a, &b, w15)
            w0 = schedule(w0, w2, w8, w13)
            round3(b, &c, d, e, &a, w0)
            w1 = schedule(w1, w3, w9, w14)
            round3(a, &b, c, d, &e, w1)
            w2 = schedule(w2, w4, w10, w15)
            round3(e, &a, b, c, &d, w2)
            w3 = schedule(w3, w5, w11, w0)
            round3(d, &e, a, b, &c, w3)
            w4 = schedule(w4, w6, w12, w1)
            round3(c, &d, e, a, &b, w4)
            w5 = schedule(w5, w7, w13, w2)
            round3(b, &c, d, e, &a, w5)
            w6 = schedule(w6, w8, w14, w3)
            round3(a, &b, c, d, &e, w6)
            w7 = schedule(w7, w9, w15, w4)
            round3(e, &a, b, c, &d, w7)
            w8 = schedule(w8, w10, w0, w5)
            round3(d, &e, a, b, &c, w8)
            w9 = schedule(w9, w11, w1, w6)
            round3(c, &d, e, a, &b, w9)
            w10 = schedule(w10, w12, w2, w7)
            round3(b, &c, d, e, &a, w10)
            w11 = schedule(w11, w13, w3, w8)
            round3(a, &b, c, d, &e, w11)
            w12 = schedule(w12, w14, w4, w9)
            round3(e, &a, b, c, &d, w12)
            w13 = schedule(w13, w15, w5, w10)
            round3(d, &e, a, b, &c, w13)
            w14 = schedule(w14, w0, w6, w11)
            round3(c, &d, e, a, &b, w14)
            w15 = schedule(w15, w1, w7, w12)
            round3(b, &c, d, e, &a, w15)
            h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e
            block += 64
        }
    }
}

/// W[t] = ROTL1(W[t−3] ⊕ W[t−8] ⊕ W[t−14] ⊕ W[t−16]), §6.1.2 step 1.
@inline(__always)
private func schedule(_ w16: UInt32, _ w14: UInt32, _ w8: UInt32, _ w3: UInt32) -> UInt32 {
    rotateLeft(w16 ^ w14 ^ w8 ^ w3, 1)
}

/// One round (§6.1.2 step 3) for rotated variable names: the new `a` goes to `e`, `b` becomes ROTL30(b).
@inline(__always)
private func step(_ a: UInt32, _ b: inout UInt32, _ e: inout UInt32, _ f: UInt32, _ k: UInt32, _ w: UInt32) {
    e = rotateLeft(a, 5) &+ f &+ e &+ k &+ w
    b = rotateLeft(b, 30)
}

/// Rounds 0–19: Ch, K = 5a827999 (§4.1.1, §4.2.1).
@inline(__always)
private func round0(_ a: UInt32, _ b: inout UInt32, _ c: UInt32, _ d: UInt32, _ e: inout UInt32, _ w: UInt32) {
    step(a, &b, &e, d ^ (b & (c ^ d)), 0x5a827999, w)
}

/// Rounds 20–39: Parity, K = 6ed9eba1.
@inline(__always)
private func round1(_ a: UInt32, _ b: inout UInt32, _ c: UInt32, _ d: UInt32, _ e: inout UInt32, _ w: UInt32) {
    step(a, &b, &e, b ^ c ^ d, 0x6ed9eba1, w)
}

/// Rounds 40–59: Maj, K = 8f1bbcdc. Maj(b, c, d) = (b ∧ c) + (d ∧ (b ⊕ c)): the two terms never
/// share a bit, so they can be added into `e` separately.
@inline(__always)
private func round2(_ a: UInt32, _ b: inout UInt32, _ c: UInt32, _ d: UInt32, _ e: inout UInt32, _ w: UInt32) {
    step(a, &b, &e, (b & c) &+ (d & (b ^ c)), 0x8f1bbcdc, w)
}

/// Rounds 60–79: Parity, K = ca62c1d6.
@inline(__always)
private func round3(_ a: UInt32, _ b: inout UInt32, _ c: UInt32, _ d: UInt32, _ e: inout UInt32, _ w: UInt32) {
    step(a, &b, &e, b ^ c ^ d, 0xca62c1d6, w)
}
