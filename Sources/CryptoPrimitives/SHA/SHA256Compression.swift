/// SHA-256 chaining state and compression function (FIPS 180-4 §6.2.2), shared by SHA-224 and SHA-256.
struct SHA256State: CompressionState {
    static var blockByteCount: Int { 64 }
    static var lengthFieldByteCount: Int { 8 }

    private var h0, h1, h2, h3, h4, h5, h6, h7: UInt32

    private init(_ h0: UInt32, _ h1: UInt32, _ h2: UInt32, _ h3: UInt32,
                 _ h4: UInt32, _ h5: UInt32, _ h6: UInt32, _ h7: UInt32) {
        (self.h0, self.h1, self.h2, self.h3, self.h4, self.h5, self.h6, self.h7) = (h0, h1, h2, h3, h4, h5, h6, h7)
    }

    /// FIPS 180-4 §5.3.3.
    static var sha256: SHA256State {
        SHA256State(0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    }

    /// FIPS 180-4 §5.3.2.
    static var sha224: SHA256State {
        SHA256State(0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4)
    }

    func store(into output: UnsafeMutableRawPointer, byteCount: Int) {
        let words = (h0.bigEndian, h1.bigEndian, h2.bigEndian, h3.bigEndian,
                     h4.bigEndian, h5.bigEndian, h6.bigEndian, h7.bigEndian)
        withUnsafeBytes(of: words) { output.copyMemory(from: $0.baseAddress!, byteCount: byteCount) }
    }

    /// The 64 rounds, unrolled; the eight working variables rotate roles instead of moving, and the
    /// message schedule (§6.2.2 step 1) is computed in place in a 16-word window.
    mutating func compress(_ blocks: UnsafeRawPointer, count: Int) {
        var block = blocks
        for _ in 0..<count {
            var w0 = load(block, 0), w1 = load(block, 1), w2 = load(block, 2), w3 = load(block, 3)
            var w4 = load(block, 4), w5 = load(block, 5), w6 = load(block, 6), w7 = load(block, 7)
            var w8 = load(block, 8), w9 = load(block, 9), w10 = load(block, 10), w11 = load(block, 11)
            var w12 = load(block, 12), w13 = load(block, 13), w14 = load(block, 14), w15 = load(block, 15)
            var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
            var bc = b ^ c
            round(a, b, c, &d, e, f, g, &h, 0x428a2f98, w0, &bc)
            round(h, a, b, &c, d, e, f, &g, 0x71374491, w1, &bc)
            round(g, h, a, &b, c, d, e, &f, 0xb5c0fbcf, w2, &bc)
            round(f, g, h, &a, b, c, d, &e, 0xe9b5dba5, w3, &bc)
            round(e, f, g, &h, a, b, c, &d, 0x3956c25b, w4, &bc)
            round(d, e, f, &g, h, a, b, &c, 0x59f111f1, w5, &bc)
            round(c, d, e, &f, g, h, a, &b, 0x923f82a4, w6, &bc)
            round(b, c, d, &e, f, g, h, &a, 0xab1c5ed5, w7, &bc)
            round(a, b, c, &d, e, f, g, &h, 0xd807aa98, w8, &bc)
            round(h, a, b, &c, d, e, f, &g, 0x12835b01, w9, &bc)
            round(g, h, a, &b, c, d, e, &f, 0x243185be, w10, &bc)
            round(f, g, h, &a, b, c, d, &e, 0x550c7dc3, w11, &bc)
            round(e, f, g, &h, a, b, c, &d, 0x72be5d74, w12, &bc)
            round(d, e, f, &g, h, a, b, &c, 0x80deb1fe, w13, &bc)
            round(c, d, e, &f, g, h, a, &b, 0x9bdc06a7, w14, &bc)
            round(b, c, d, &e, f, g, h, &a, 0xc19bf174, w15, &bc)
            w0 = schedule(w0, w1, w9, w14)
            round(a, b, c, &d, e, f, g, &h, 0xe49b69c1, w0, &bc)
            w1 = schedule(w1, w2, w10, w15)
            round(h, a, b, &c, d, e, f, &g, 0xefbe4786, w1, &bc)
            w2 = schedule(w2, w3, w11, w0)
            round(g, h, a, &b, c, d, e, &f, 0x0fc19dc6, w2, &bc)
            w3 = schedule(w3, w4, w12, w1)
            round(f, g, h, &a, b, c, d, &e, 0x240ca1cc, w3, &bc)
            w4 = schedule(w4, w5, w13, w2)
            round(e, f, g, &h, a, b, c, &d, 0x2de92c6f, w4, &bc)
            w5 = schedule(w5, w6, w14, w3)
            round(d, e, f, &g, h, a, b, &c, 0x4a7484aa, w5, &bc)
            w6 = schedule(w6, w7, w15, w4)
            round(c, d, e, &f, g, h, a, &b, 0x5cb0a9dc, w6, &bc)
            w7 = schedule(w7, w8, w0, w5)
            round(b, c, d, &e, f, g, h, &a, 0x76f988da, w7, &bc)
            w8 = schedule(w8, w9, w1, w6)
            round(a, b, c, &d, e, f, g, &h, 0x983e5152, w8, &bc)
            w9 = schedule(w9, w10, w2, w7)
            round(h, a, b, &c, d, e, f, &g, 0xa831c66d, w9, &bc)
            w10 = schedule(w10, w11, w3, w8)
            round(g, h, a, &b, c, d, e, &f, 0xb00327c8, w10, &bc)
            w11 = schedule(w11, w12, w4, w9)
            round(f, g, h, &a, b, c, d, &e, 0xbf597fc7, w11, &bc)
            w12 = schedule(w12, w13, w5, w10)
            round(e, f, g, &h, a, b, c, &d, 0xc6e00bf3, w12, &bc)
            w13 = schedule(w13, w14, w6, w11)
            round(d, e, f, &g, h, a, b, &c, 0xd5a79147, w13, &bc)
            w14 = schedule(w14, w15, w7, w12)
            round(c, d, e, &f, g, h, a, &b, 0x06ca6351, w14, &bc)
            w15 = schedule(w15, w0, w8, w13)
            round(b, c, d, &e, f, g, h, &a, 0x14292967, w15, &bc)
            w0 = schedule(w0, w1, w9, w14)
            round(a, b, c, &d, e, f, g, &h, 0x27b70a85, w0, &bc)
            w1 = schedule(w1, w2, w10, w15)
            round(h, a, b, &c, d, e, f, &g, 0x2e1b2138, w1, &bc)
            w2 = schedule(w2, w3, w11, w0)
            round(g, h, a, &b, c, d, e, &f, 0x4d2c6dfc, w2, &bc)
            w3 = schedule(w3, w4, w12, w1)
            round(f, g, h, &a, b, c, d, &e, 0x53380d13, w3, &bc)
            w4 = schedule(w4, w5, w13, w2)
            round(e, f, g, &h, a, b, c, &d, 0x650a7354, w4, &bc)
            w5 = schedule(w5, w6, w14, w3)
            round(d, e, f, &g, h, a, b, &c, 0x766a0abb, w5, &bc)
            w6 = schedule(w6, w7, w15, w4)
            round(c, d, e, &f, g, h, a, &b, 0x81c2c92e, w6, &bc)
            w7 = schedule(w7, w8, w0, w5)
            round(b, c, d, &e, f, g, h, &a, 0x92722c85, w7, &bc)
            w8 = schedule(w8, w9, w1, w6)
            round(a, b, c, &d, e, f, g, &h, 0xa2bfe8a1, w8, &bc)
            w9 = schedule(w9, w10, w2, w7)
            round(h, a, b, &c, d, e, f, &g, 0xa81a664b, w9, &bc)
            w10 = schedule(w10, w11, w3, w8)
            round(g, h, a, &b, c, d, e, &f, 0xc24b8b70, w10, &bc)
            w11 = schedule(w11, w12, w4, w9)
            round(f, g, h, &a, b, c, d, &e, 0xc76c51a3, w11, &bc)
            w12 = schedule(w12, w13, w5, w10)
            round(e, f, g, &h, a, b, c, &d, 0xd192e819, w12, &bc)
            w13 = schedule(w13, w14, w6, w11)
            round(d, e, f, &g, h, a, b, &c, 0xd6990624, w13, &bc)
            w14 = schedule(w14, w15, w7, w12)
            round(c, d, e, &f, g, h, a, &b, 0xf40e3585, w14, &bc)
            w15 = schedule(w15, w0, w8, w13)
            round(b, c, d, &e, f, g, h, &a, 0x106aa070, w15, &bc)
            w0 = schedule(w0, w1, w9, w14)
            round(a, b, c, &d, e, f, g, &h, 0x19a4c116, w0, &bc)
            w1 = schedule(w1, w2, w10, w15)
            round(h, a, b, &c, d, e, f, &g, 0x1e376c08, w1, &bc)
            w2 = schedule(w2, w3, w11, w0)
            round(g, h, a, &b, c, d, e, &f, 0x2748774c, w2, &bc)
            w3 = schedule(w3, w4, w12, w1)
            round(f, g, h, &a, b, c, d, &e, 0x34b0bcb5, w3, &bc)
            w4 = schedule(w4, w5, w13, w2)
            round(e, f, g, &h, a, b, c, &d, 0x391c0cb3, w4, &bc)
            w5 = schedule(w5, w6, w14, w3)
            round(d, e, f, &g, h, a, b, &c, 0x4ed8aa4a, w5, &bc)
            w6 = schedule(w6, w7, w15, w4)
            round(c, d, e, &f, g, h, a, &b, 0x5b9cca4f, w6, &bc)
            w7 = schedule(w7, w8, w0, w5)
            round(b, c, d, &e, f, g, h, &a, 0x682e6ff3, w7, &bc)
            w8 = schedule(w8, w9, w1, w6)
            round(a, b, c, &d, e, f, g, &h, 0x748f82ee, w8, &bc)
            w9 = schedule(w9, w10, w2, w7)
            round(h, a, b, &c, d, e, f, &g, 0x78a5636f, w9, &bc)
            w10 = schedule(w10, w11, w3, w8)
            round(g, h, a, &b, c, d, e, &f, 0x84c87814, w10, &bc)
            w11 = schedule(w11, w12, w4, w9)
            round(f, g, h, &a, b, c, d, &e, 0x8cc70208, w11, &bc)
            w12 = schedule(w12, w13, w5, w10)
            round(e, f, g, &h, a, b, c, &d, 0x90befffa, w12, &bc)
            w13 = schedule(w13, w14, w6, w11)
            round(d, e, f, &g, h, a, b, &c, 0xa4506ceb, w13, &bc)
            w14 = schedule(w14, w15, w7, w12)
            round(c, d, e, &f, g, h, a, &b, 0xbef9a3f7, w14, &bc)
            w15 = schedule(w15, w0, w8, w13)
            round(b, c, d, &e, f, g, h, &a, 0xc67178f2, w15, &bc)
            h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
            h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
            block += 64
        }
    }
}

/// Word `index` of a block, read big-endian (FIPS 180-4 §3.1).
@inline(__always)
private func load(_ block: UnsafeRawPointer, _ index: Int) -> UInt32 {
    UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
}

@inline(__always)
private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
    (x &>> n) | (x &<< (32 &- n))
}

/// One round, FIPS 180-4 §6.2.2 step 3, written for rotated variable names: the new `e` goes to
/// `d` and the new `a` to `h`. `bc` carries b ⊕ c in and a ⊕ b out, the next round's b ⊕ c, so
/// Maj(a, b, c) = b ⊕ ((a ⊕ b) ∧ (b ⊕ c)) costs three operations.
@inline(__always)
private func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
                   _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ k: UInt32, _ w: UInt32, _ bc: inout UInt32) {
    let sigma1 = rotr(e ^ rotr(e ^ rotr(e, 14), 5), 6)          // Σ1 = ROTR6 ⊕ ROTR11 ⊕ ROTR25, §4.1.2 (4.5)
    let choose = g ^ (e & (f ^ g))                                  // Ch
    let t1 = h &+ k &+ w &+ choose &+ sigma1
    let sigma0 = rotr(a ^ rotr(a ^ rotr(a, 9), 11), 2)          // Σ0 = ROTR2 ⊕ ROTR13 ⊕ ROTR22 (4.4)
    let ab = a ^ b
    let majority = b ^ (ab & bc)                                    // Maj
    bc = ab
    d &+= t1
    h = t1 &+ sigma0 &+ majority
}

/// W[t] = σ1(W[t−2]) + W[t−7] + σ0(W[t−15]) + W[t−16], §6.2.2 step 1.
@inline(__always)
private func schedule(_ w16: UInt32, _ w15: UInt32, _ w7: UInt32, _ w2: UInt32) -> UInt32 {
    let s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 &>> 3)             // σ0 (4.6)
    let s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 &>> 10)              // σ1 (4.7)
    return w16 &+ s0 &+ w7 &+ s1
}
