/// SHA-256 chaining state and compression function (FIPS 180-4 §6.2.2), shared by SHA-224 and SHA-256.
struct SHA256State: CompressionState {
    static var blockByteCount: Int { 64 }
    static var lengthFieldByteCount: Int { 8 }

    private var h0, h1, h2, h3, h4, h5, h6, h7: UInt32

    private init(
        _ h0: UInt32, _ h1: UInt32, _ h2: UInt32, _ h3: UInt32,
        _ h4: UInt32, _ h5: UInt32, _ h6: UInt32, _ h7: UInt32
    ) {
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
        let words = (
            h0.bigEndian, h1.bigEndian, h2.bigEndian, h3.bigEndian,
            h4.bigEndian, h5.bigEndian, h6.bigEndian, h7.bigEndian
        )
        withUnsafeBytes(of: words) { output.copyMemory(from: $0.baseAddress!, byteCount: byteCount) }
    }

    /// The 64 rounds, unrolled; the eight working variables rotate roles instead of moving.
    ///
    /// The message schedule (§6.2.2 step 1) runs four words at a time in SIMD lanes (SSE2 on
    /// x86-64, NEON on arm64), in a window of four vectors x0…x3 (W[t−16…t−1]), each group
    /// computed 16 rounds before it is needed; the rounds take W[t] + K[t] from its lanes.
    mutating func compress(_ blocks: UnsafeRawPointer, count: Int) {
        var block = blocks
        for _ in 0 ..< count {
            var x0 = bigEndianLanes(block.loadUnaligned(fromByteOffset: 0, as: SIMD4<UInt32>.self))
            var x1 = bigEndianLanes(block.loadUnaligned(fromByteOffset: 16, as: SIMD4<UInt32>.self))
            var x2 = bigEndianLanes(block.loadUnaligned(fromByteOffset: 32, as: SIMD4<UInt32>.self))
            var x3 = bigEndianLanes(block.loadUnaligned(fromByteOffset: 48, as: SIMD4<UInt32>.self))
            var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
            var bc = b ^ c
            var kw: SIMD4<UInt32>
            kw = x0 &+ SIMD4(0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5)
            x0 = nextWords(x0, x1, x2, x3)
            round(a, b, c, &d, e, f, g, &h, kw[0], &bc)
            round(h, a, b, &c, d, e, f, &g, kw[1], &bc)
            round(g, h, a, &b, c, d, e, &f, kw[2], &bc)
            round(f, g, h, &a, b, c, d, &e, kw[3], &bc)
            kw = x1 &+ SIMD4(0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5)
            x1 = nextWords(x1, x2, x3, x0)
            round(e, f, g, &h, a, b, c, &d, kw[0], &bc)
            round(d, e, f, &g, h, a, b, &c, kw[1], &bc)
            round(c, d, e, &f, g, h, a, &b, kw[2], &bc)
            round(b, c, d, &e, f, g, h, &a, kw[3], &bc)
            kw = x2 &+ SIMD4(0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3)
            x2 = nextWords(x2, x3, x0, x1)
            round(a, b, c, &d, e, f, g, &h, kw[0], &bc)
            round(h, a, b, &c, d, e, f, &g, kw[1], &bc)
            round(g, h, a, &b, c, d, e, &f, kw[2], &bc)
            round(f, g, h, &a, b, c, d, &e, kw[3], &bc)
            kw = x3 &+ SIMD4(0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174)
            x3 = nextWords(x3, x0, x1, x2)
            round(e, f, g, &h, a, b, c, &d, kw[0], &bc)
            round(d, e, f, &g, h, a, b, &c, kw[1], &bc)
            round(c, d, e, &f, g, h, a, &b, kw[2], &bc)
            round(b, c, d, &e, f, g, h, &a, kw[3], &bc)
            kw = x0 &+ SIMD4(0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc)
            x0 = nextWords(x0, x1, x2, x3)
            round(a, b, c, &d, e, f, g, &h, kw[0], &bc)
            round(h, a, b, &c, d, e, f, &g, kw[1], &bc)
            round(g, h, a, &b, c, d, e, &f, kw[2], &bc)
            round(f, g, h, &a, b, c, d, &e, kw[3], &bc)
            kw = x1 &+ SIMD4(0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da)
            x1 = nextWords(x1, x2, x3, x0)
            round(e, f, g, &h, a, b, c, &d, kw[0], &bc)
            round(d, e, f, &g, h, a, b, &c, kw[1], &bc)
            round(c, d, e, &f, g, h, a, &b, kw[2], &bc)
            round(b, c, d, &e, f, g, h, &a, kw[3], &bc)
            kw = x2 &+ SIMD4(0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7)
            x2 = nextWords(x2, x3, x0, x1)
            round(a, b, c, &d, e, f, g, &h, kw[0], &bc)
            round(h, a, b, &c, d, e, f, &g, kw[1], &bc)
            round(g, h, a, &b, c, d, e, &f, kw[2], &bc)
            round(f, g, h, &a, b, c, d, &e, kw[3], &bc)
            kw = x3 &+ SIMD4(0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967)
            x3 = nextWords(x3, x0, x1, x2)
            round(e, f, g, &h, a, b, c, &d, kw[0], &bc)
            round(d, e, f, &g, h, a, b, &c, kw[1], &bc)
            round(c, d, e, &f, g, h, a, &b, kw[2], &bc)
            round(b, c, d, &e, f, g, h, &a, kw[3], &bc)
            kw = x0 &+ SIMD4(0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13)
            x0 = nextWords(x0, x1, x2, x3)
            round(a, b, c, &d, e, f, g, &h, kw[0], &bc)
            round(h, a, b, &c, d, e, f, &g, kw[1], &bc)
            round(g, h, a, &b, c, d, e, &f, kw[2], &bc)
            round(f, g, h, &a, b, c, d, &e, kw[3], &bc)
            kw = x1 &+ SIMD4(0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85)
            x1 = nextWords(x1, x2, x3, x0)
            round(e, f, g, &h, a, b, c, &d, kw[0], &bc)
            round(d, e, f, &g, h, a, b, &c, kw[1], &bc)
            round(c, d, e, &f, g, h, a, &b, kw[2], &bc)
            round(b, c, d, &e, f, g, h, &a, kw[3], &bc)
            kw = x2 &+ SIMD4(0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3)
            x2 = nextWords(x2, x3, x0, x1)
            round(a, b, c, &d, e, f, g, &h, kw[0], &bc)
            round(h, a, b, &c, d, e, f, &g, kw[1], &bc)
            round(g, h, a, &b, c, d, e, &f, kw[2], &bc)
            round(f, g, h, &a, b, c, d, &e, kw[3], &bc)
            kw = x3 &+ SIMD4(0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070)
            x3 = nextWords(x3, x0, x1, x2)
            round(e, f, g, &h, a, b, c, &d, kw[0], &bc)
            round(d, e, f, &g, h, a, b, &c, kw[1], &bc)
            round(c, d, e, &f, g, h, a, &b, kw[2], &bc)
            round(b, c, d, &e, f, g, h, &a, kw[3], &bc)
            kw = x0 &+ SIMD4(0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5)
            round(a, b, c, &d, e, f, g, &h, kw[0], &bc)
            round(h, a, b, &c, d, e, f, &g, kw[1], &bc)
            round(g, h, a, &b, c, d, e, &f, kw[2], &bc)
            round(f, g, h, &a, b, c, d, &e, kw[3], &bc)
            kw = x1 &+ SIMD4(0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3)
            round(e, f, g, &h, a, b, c, &d, kw[0], &bc)
            round(d, e, f, &g, h, a, b, &c, kw[1], &bc)
            round(c, d, e, &f, g, h, a, &b, kw[2], &bc)
            round(b, c, d, &e, f, g, h, &a, kw[3], &bc)
            kw = x2 &+ SIMD4(0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208)
            round(a, b, c, &d, e, f, g, &h, kw[0], &bc)
            round(h, a, b, &c, d, e, f, &g, kw[1], &bc)
            round(g, h, a, &b, c, d, e, &f, kw[2], &bc)
            round(f, g, h, &a, b, c, d, &e, kw[3], &bc)
            kw = x3 &+ SIMD4(0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2)
            round(e, f, g, &h, a, b, c, &d, kw[0], &bc)
            round(d, e, f, &g, h, a, b, &c, kw[1], &bc)
            round(c, d, e, &f, g, h, a, &b, kw[2], &bc)
            round(b, c, d, &e, f, g, h, &a, kw[3], &bc)
            h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
            h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
            block += 64
        }
    }
}

/// W[t…t+3] from W[t−16…t−1] held in x0 (oldest) … x3: W[t] = σ1(W[t−2]) + W[t−7] + σ0(W[t−15])
/// + W[t−16] (§6.2.2 step 1). W[t+2] and W[t+3] need W[t] and W[t+1], so σ1 runs twice, on two
/// words each time.
@inline(__always)
private func nextWords(_ x0: SIMD4<UInt32>, _ x1: SIMD4<UInt32>, _ x2: SIMD4<UInt32>, _ x3: SIMD4<UInt32>) -> SIMD4<UInt32> {
    let w15 = SIMD4(x0[1], x0[2], x0[3], x1[0])
    let w7 = SIMD4(x2[1], x2[2], x2[3], x3[0])
    let t = x0 &+ smallSigma0(w15) &+ w7
    let s1low = smallSigma1Pairs(SIMD4(x3[2], x3[2], x3[3], x3[3]))
    let low = t &+ SIMD4(s1low[0], s1low[2], 0, 0)
    let s1high = smallSigma1Pairs(SIMD4(low[0], low[0], low[1], low[1]))
    return low &+ SIMD4(0, 0, s1high[0], s1high[2])
}

/// σ0 = ROTR7 ⊕ ROTR18 ⊕ SHR3 (4.6) with shifts only: SSE2 has no vector rotate, and the
/// compiler emulates rotate patterns with multiplications.
@inline(__always)
private func smallSigma0(_ x: SIMD4<UInt32>) -> SIMD4<UInt32> {
    (x &>> 3) ^ ((x ^ (x &>> 11)) &>> 7) ^ ((x ^ (x &<< 11)) &<< 14)
}

/// σ1 = ROTR17 ⊕ ROTR19 ⊕ SHR10 (4.7) of lanes 0 and 2, for d = (w, w, v, v): a 64-bit lane
/// that holds a word twice, shifted right by n, has ROTR n of the word in its low half.
@inline(__always)
private func smallSigma1Pairs(_ d: SIMD4<UInt32>) -> SIMD4<UInt32> {
    let pairs = unsafeBitCast(d, to: SIMD2<UInt64>.self)
    #if _endian(little)
        return unsafeBitCast((pairs &>> 17) ^ (pairs &>> 19), to: SIMD4<UInt32>.self) ^ (d &>> 10)
    #else
        // The low half of a 64-bit lane is its second 32-bit lane.
        let rotated = unsafeBitCast((pairs &>> 17) ^ (pairs &>> 19), to: SIMD4<UInt32>.self)
        return SIMD4(rotated[1], rotated[1], rotated[3], rotated[3]) ^ (d &>> 10)
    #endif
}

/// One round, FIPS 180-4 §6.2.2 step 3, written for rotated variable names: the new `e` goes to
/// `d` and the new `a` to `h`; `kw` = K[t] + W[t]. `bc` carries b ⊕ c in and a ⊕ b out, the next
/// round's b ⊕ c, so Maj(a, b, c) = b ⊕ ((a ⊕ b) ∧ (b ⊕ c)) costs three operations.
///
/// Both chains from one round to the next are kept short, since a round's latency, not its
/// instruction count, bounds the speed: Σ1(e) as three independent rotations (ROTR6 ⊕ ROTR11 ⊕
/// ROTR25, three steps deep) and Σ0(a) = ROTR2(a ⊕ ROTR11(a)) ⊕ ROTR22(a) (four steps, one move
/// fewer than three rotations), and the sums ordered so that Σ1 and Σ0 are added last.
@inline(__always)
private func round(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
    _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32, _ bc: inout UInt32
) {
    let choose = g ^ (e & (f ^ g))   // Ch
    let early = h &+ kw &+ choose
    let ab = a ^ b
    let majority = b ^ (ab & bc)   // Maj
    bc = ab
    let sigma1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)   // Σ1 (4.5)
    let sigma0 = rotateRight(a ^ rotateRight(a, 11), 2) ^ rotateRight(a, 22)   // Σ0 (4.4)
    let t1 = early &+ sigma1
    d = d &+ early &+ sigma1
    h = t1 &+ majority &+ sigma0
}
