/// SHA-512 chaining state and compression function (FIPS 180-4 §6.4.2), shared by SHA-384, SHA-512,
/// SHA-512/224 and SHA-512/256.
struct SHA512State: CompressionState {
    static var blockByteCount: Int { 128 }
    static var lengthFieldByteCount: Int { 16 }

    private var h0, h1, h2, h3, h4, h5, h6, h7: UInt64

    private init(
        _ h0: UInt64, _ h1: UInt64, _ h2: UInt64, _ h3: UInt64,
        _ h4: UInt64, _ h5: UInt64, _ h6: UInt64, _ h7: UInt64
    ) {
        (self.h0, self.h1, self.h2, self.h3, self.h4, self.h5, self.h6, self.h7) = (h0, h1, h2, h3, h4, h5, h6, h7)
    }

    /// FIPS 180-4 §5.3.5.
    static var sha512: SHA512State {
        SHA512State(
            0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
            0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179)
    }

    /// FIPS 180-4 §5.3.4.
    static var sha384: SHA512State {
        SHA512State(
            0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
            0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4)
    }

    /// FIPS 180-4 §5.3.6.1.
    static var sha512_224: SHA512State {
        SHA512State(
            0x8c3d37c819544da2, 0x73e1996689dcd4d6, 0x1dfab7ae32ff9c82, 0x679dd514582f9fcf,
            0x0f6d2b697bd44da8, 0x77e36f7304c48942, 0x3f9d85a86a1d36c8, 0x1112e6ad91d692a1)
    }

    /// FIPS 180-4 §5.3.6.2.
    static var sha512_256: SHA512State {
        SHA512State(
            0x22312194fc2bf72c, 0x9f555fa3c84c64c2, 0x2393b86b6f53b151, 0x963877195940eabd,
            0x96283ee2a88effe3, 0xbe5e1e2553863992, 0x2b0199fc2c85b8aa, 0x0eb72ddc81c52ca2)
    }

    func store(into output: UnsafeMutableRawPointer, byteCount: Int) {
        let words = (
            h0.bigEndian, h1.bigEndian, h2.bigEndian, h3.bigEndian,
            h4.bigEndian, h5.bigEndian, h6.bigEndian, h7.bigEndian
        )
        withUnsafeBytes(of: words) { output.copyMemory(from: $0.baseAddress!, byteCount: byteCount) }
    }

    /// The 80 rounds, unrolled; the eight working variables rotate roles instead of moving, and the
    /// message schedule (§6.4.2 step 1) is computed in place in a 16-word window.
    mutating func compress(_ blocks: UnsafeRawPointer, count: Int) {
        var block = blocks
        for _ in 0 ..< count {
            @inline(__always) func word(_ index: Int) -> UInt64 { bigEndianWord(block, index, as: UInt64.self) }
            var w0 = word(0), w1 = word(1), w2 = word(2), w3 = word(3)
            var w4 = word(4), w5 = word(5), w6 = word(6), w7 = word(7)
            var w8 = word(8), w9 = word(9), w10 = word(10), w11 = word(11)
            var w12 = word(12), w13 = word(13), w14 = word(14), w15 = word(15)
            var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
            var bc = b ^ c
            round(a, b, c, &d, e, f, g, &h, 0x428a2f98d728ae22, w0, &bc)
            round(h, a, b, &c, d, e, f, &g, 0x7137449123ef65cd, w1, &bc)
            round(g, h, a, &b, c, d, e, &f, 0xb5c0fbcfec4d3b2f, w2, &bc)
            round(f, g, h, &a, b, c, d, &e, 0xe9b5dba58189dbbc, w3, &bc)
            round(e, f, g, &h, a, b, c, &d, 0x3956c25bf348b538, w4, &bc)
            round(d, e, f, &g, h, a, b, &c, 0x59f111f1b605d019, w5, &bc)
            round(c, d, e, &f, g, h, a, &b, 0x923f82a4af194f9b, w6, &bc)
            round(b, c, d, &e, f, g, h, &a, 0xab1c5ed5da6d8118, w7, &bc)
            round(a, b, c, &d, e, f, g, &h, 0xd807aa98a3030242, w8, &bc)
            round(h, a, b, &c, d, e, f, &g, 0x12835b0145706fbe, w9, &bc)
            round(g, h, a, &b, c, d, e, &f, 0x243185be4ee4b28c, w10, &bc)
            round(f, g, h, &a, b, c, d, &e, 0x550c7dc3d5ffb4e2, w11, &bc)
            round(e, f, g, &h, a, b, c, &d, 0x72be5d74f27b896f, w12, &bc)
            round(d, e, f, &g, h, a, b, &c, 0x80deb1fe3b1696b1, w13, &bc)
            round(c, d, e, &f, g, h, a, &b, 0x9bdc06a725c71235, w14, &bc)
            round(b, c, d, &e, f, g, h, &a, 0xc19bf174cf692694, w15, &bc)
            w0 = schedule(w0, w1, w9, w14)
            round(a, b, c, &d, e, f, g, &h, 0xe49b69c19ef14ad2, w0, &bc)
            w1 = schedule(w1, w2, w10, w15)
            round(h, a, b, &c, d, e, f, &g, 0xefbe4786384f25e3, w1, &bc)
            w2 = schedule(w2, w3, w11, w0)
            round(g, h, a, &b, c, d, e, &f, 0x0fc19dc68b8cd5b5, w2, &bc)
            w3 = schedule(w3, w4, w12, w1)
            round(f, g, h, &a, b, c, d, &e, 0x240ca1cc77ac9c65, w3, &bc)
            w4 = schedule(w4, w5, w13, w2)
            round(e, f, g, &h, a, b, c, &d, 0x2de92c6f592b0275, w4, &bc)
            w5 = schedule(w5, w6, w14, w3)
            round(d, e, f, &g, h, a, b, &c, 0x4a7484aa6ea6e483, w5, &bc)
            w6 = schedule(w6, w7, w15, w4)
            round(c, d, e, &f, g, h, a, &b, 0x5cb0a9dcbd41fbd4, w6, &bc)
            w7 = schedule(w7, w8, w0, w5)
            round(b, c, d, &e, f, g, h, &a, 0x76f988da831153b5, w7, &bc)
            w8 = schedule(w8, w9, w1, w6)
            round(a, b, c, &d, e, f, g, &h, 0x983e5152ee66dfab, w8, &bc)
            w9 = schedule(w9, w10, w2, w7)
            round(h, a, b, &c, d, e, f, &g, 0xa831c66d2db43210, w9, &bc)
            w10 = schedule(w10, w11, w3, w8)
            round(g, h, a, &b, c, d, e, &f, 0xb00327c898fb213f, w10, &bc)
            w11 = schedule(w11, w12, w4, w9)
            round(f, g, h, &a, b, c, d, &e, 0xbf597fc7beef0ee4, w11, &bc)
            w12 = schedule(w12, w13, w5, w10)
            round(e, f, g, &h, a, b, c, &d, 0xc6e00bf33da88fc2, w12, &bc)
            w13 = schedule(w13, w14, w6, w11)
            round(d, e, f, &g, h, a, b, &c, 0xd5a79147930aa725, w13, &bc)
            w14 = schedule(w14, w15, w7, w12)
            round(c, d, e, &f, g, h, a, &b, 0x06ca6351e003826f, w14, &bc)
            w15 = schedule(w15, w0, w8, w13)
            round(b, c, d, &e, f, g, h, &a, 0x142929670a0e6e70, w15, &bc)
            w0 = schedule(w0, w1, w9, w14)
            round(a, b, c, &d, e, f, g, &h, 0x27b70a8546d22ffc, w0, &bc)
            w1 = schedule(w1, w2, w10, w15)
            round(h, a, b, &c, d, e, f, &g, 0x2e1b21385c26c926, w1, &bc)
            w2 = schedule(w2, w3, w11, w0)
            round(g, h, a, &b, c, d, e, &f, 0x4d2c6dfc5ac42aed, w2, &bc)
            w3 = schedule(w3, w4, w12, w1)
            round(f, g, h, &a, b, c, d, &e, 0x53380d139d95b3df, w3, &bc)
            w4 = schedule(w4, w5, w13, w2)
            round(e, f, g, &h, a, b, c, &d, 0x650a73548baf63de, w4, &bc)
            w5 = schedule(w5, w6, w14, w3)
            round(d, e, f, &g, h, a, b, &c, 0x766a0abb3c77b2a8, w5, &bc)
            w6 = schedule(w6, w7, w15, w4)
            round(c, d, e, &f, g, h, a, &b, 0x81c2c92e47edaee6, w6, &bc)
            w7 = schedule(w7, w8, w0, w5)
            round(b, c, d, &e, f, g, h, &a, 0x92722c851482353b, w7, &bc)
            w8 = schedule(w8, w9, w1, w6)
            round(a, b, c, &d, e, f, g, &h, 0xa2bfe8a14cf10364, w8, &bc)
            w9 = schedule(w9, w10, w2, w7)
            round(h, a, b, &c, d, e, f, &g, 0xa81a664bbc423001, w9, &bc)
            w10 = schedule(w10, w11, w3, w8)
            round(g, h, a, &b, c, d, e, &f, 0xc24b8b70d0f89791, w10, &bc)
            w11 = schedule(w11, w12, w4, w9)
            round(f, g, h, &a, b, c, d, &e, 0xc76c51a30654be30, w11, &bc)
            w12 = schedule(w12, w13, w5, w10)
            round(e, f, g, &h, a, b, c, &d, 0xd192e819d6ef5218, w12, &bc)
            w13 = schedule(w13, w14, w6, w11)
            round(d, e, f, &g, h, a, b, &c, 0xd69906245565a910, w13, &bc)
            w14 = schedule(w14, w15, w7, w12)
            round(c, d, e, &f, g, h, a, &b, 0xf40e35855771202a, w14, &bc)
            w15 = schedule(w15, w0, w8, w13)
            round(b, c, d, &e, f, g, h, &a, 0x106aa07032bbd1b8, w15, &bc)
            w0 = schedule(w0, w1, w9, w14)
            round(a, b, c, &d, e, f, g, &h, 0x19a4c116b8d2d0c8, w0, &bc)
            w1 = schedule(w1, w2, w10, w15)
            round(h, a, b, &c, d, e, f, &g, 0x1e376c085141ab53, w1, &bc)
            w2 = schedule(w2, w3, w11, w0)
            round(g, h, a, &b, c, d, e, &f, 0x2748774cdf8eeb99, w2, &bc)
            w3 = schedule(w3, w4, w12, w1)
            round(f, g, h, &a, b, c, d, &e, 0x34b0bcb5e19b48a8, w3, &bc)
            w4 = schedule(w4, w5, w13, w2)
            round(e, f, g, &h, a, b, c, &d, 0x391c0cb3c5c95a63, w4, &bc)
            w5 = schedule(w5, w6, w14, w3)
            round(d, e, f, &g, h, a, b, &c, 0x4ed8aa4ae3418acb, w5, &bc)
            w6 = schedule(w6, w7, w15, w4)
            round(c, d, e, &f, g, h, a, &b, 0x5b9cca4f7763e373, w6, &bc)
            w7 = schedule(w7, w8, w0, w5)
            round(b, c, d, &e, f, g, h, &a, 0x682e6ff3d6b2b8a3, w7, &bc)
            w8 = schedule(w8, w9, w1, w6)
            round(a, b, c, &d, e, f, g, &h, 0x748f82ee5defb2fc, w8, &bc)
            w9 = schedule(w9, w10, w2, w7)
            round(h, a, b, &c, d, e, f, &g, 0x78a5636f43172f60, w9, &bc)
            w10 = schedule(w10, w11, w3, w8)
            round(g, h, a, &b, c, d, e, &f, 0x84c87814a1f0ab72, w10, &bc)
            w11 = schedule(w11, w12, w4, w9)
            round(f, g, h, &a, b, c, d, &e, 0x8cc702081a6439ec, w11, &bc)
            w12 = schedule(w12, w13, w5, w10)
            round(e, f, g, &h, a, b, c, &d, 0x90befffa23631e28, w12, &bc)
            w13 = schedule(w13, w14, w6, w11)
            round(d, e, f, &g, h, a, b, &c, 0xa4506cebde82bde9, w13, &bc)
            w14 = schedule(w14, w15, w7, w12)
            round(c, d, e, &f, g, h, a, &b, 0xbef9a3f7b2c67915, w14, &bc)
            w15 = schedule(w15, w0, w8, w13)
            round(b, c, d, &e, f, g, h, &a, 0xc67178f2e372532b, w15, &bc)
            w0 = schedule(w0, w1, w9, w14)
            round(a, b, c, &d, e, f, g, &h, 0xca273eceea26619c, w0, &bc)
            w1 = schedule(w1, w2, w10, w15)
            round(h, a, b, &c, d, e, f, &g, 0xd186b8c721c0c207, w1, &bc)
            w2 = schedule(w2, w3, w11, w0)
            round(g, h, a, &b, c, d, e, &f, 0xeada7dd6cde0eb1e, w2, &bc)
            w3 = schedule(w3, w4, w12, w1)
            round(f, g, h, &a, b, c, d, &e, 0xf57d4f7fee6ed178, w3, &bc)
            w4 = schedule(w4, w5, w13, w2)
            round(e, f, g, &h, a, b, c, &d, 0x06f067aa72176fba, w4, &bc)
            w5 = schedule(w5, w6, w14, w3)
            round(d, e, f, &g, h, a, b, &c, 0x0a637dc5a2c898a6, w5, &bc)
            w6 = schedule(w6, w7, w15, w4)
            round(c, d, e, &f, g, h, a, &b, 0x113f9804bef90dae, w6, &bc)
            w7 = schedule(w7, w8, w0, w5)
            round(b, c, d, &e, f, g, h, &a, 0x1b710b35131c471b, w7, &bc)
            w8 = schedule(w8, w9, w1, w6)
            round(a, b, c, &d, e, f, g, &h, 0x28db77f523047d84, w8, &bc)
            w9 = schedule(w9, w10, w2, w7)
            round(h, a, b, &c, d, e, f, &g, 0x32caab7b40c72493, w9, &bc)
            w10 = schedule(w10, w11, w3, w8)
            round(g, h, a, &b, c, d, e, &f, 0x3c9ebe0a15c9bebc, w10, &bc)
            w11 = schedule(w11, w12, w4, w9)
            round(f, g, h, &a, b, c, d, &e, 0x431d67c49c100d4c, w11, &bc)
            w12 = schedule(w12, w13, w5, w10)
            round(e, f, g, &h, a, b, c, &d, 0x4cc5d4becb3e42b6, w12, &bc)
            w13 = schedule(w13, w14, w6, w11)
            round(d, e, f, &g, h, a, b, &c, 0x597f299cfc657e2a, w13, &bc)
            w14 = schedule(w14, w15, w7, w12)
            round(c, d, e, &f, g, h, a, &b, 0x5fcb6fab3ad6faec, w14, &bc)
            w15 = schedule(w15, w0, w8, w13)
            round(b, c, d, &e, f, g, h, &a, 0x6c44198c4a475817, w15, &bc)
            h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
            h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
            block += 128
        }
    }
}

/// One round, FIPS 180-4 §6.4.2 step 3, written for rotated variable names: the new `e` goes to
/// `d` and the new `a` to `h`. `bc` carries b ⊕ c in and a ⊕ b out, the next round's b ⊕ c, so
/// Maj(a, b, c) = b ⊕ ((a ⊕ b) ∧ (b ⊕ c)) costs three operations.
@inline(__always)
private func round(
    _ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: inout UInt64,
    _ e: UInt64, _ f: UInt64, _ g: UInt64, _ h: inout UInt64, _ k: UInt64, _ w: UInt64, _ bc: inout UInt64
) {
    let sigma1 = rotateRight(e ^ rotateRight(e ^ rotateRight(e, 23), 4), 14)   // Σ1 = ROTR14 ⊕ ROTR18 ⊕ ROTR41, §4.1.3 (4.11)
    let choose = g ^ (e & (f ^ g))   // Ch
    let t1 = h &+ k &+ w &+ choose &+ sigma1
    let sigma0 = rotateRight(a ^ rotateRight(a ^ rotateRight(a, 5), 6), 28)   // Σ0 = ROTR28 ⊕ ROTR34 ⊕ ROTR39 (4.10)
    let ab = a ^ b
    let majority = b ^ (ab & bc)   // Maj
    bc = ab
    d &+= t1
    h = t1 &+ sigma0 &+ majority
}

/// W[t] = σ1(W[t−2]) + W[t−7] + σ0(W[t−15]) + W[t−16], §6.4.2 step 1.
@inline(__always)
private func schedule(_ w16: UInt64, _ w15: UInt64, _ w7: UInt64, _ w2: UInt64) -> UInt64 {
    let s0 = rotateRight(w15, 1) ^ rotateRight(w15, 8) ^ (w15 &>> 7)   // σ0 (4.12)
    let s1 = rotateRight(w2, 19) ^ rotateRight(w2, 61) ^ (w2 &>> 6)   // σ1 (4.13)
    return w16 &+ s0 &+ w7 &+ s1
}
