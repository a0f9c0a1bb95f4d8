/// The generator's multiples for the constant-time comb: for each of the 43 six-bit windows i of
/// a scalar, the affine points j·2^(6i)·G for j = 1 … 32 (1,376 points, 86 KiB), built once per
/// process at first use. With signed digits in [−32, 32] (`P256SigningDigits`) and one table
/// per window, k·G = Σ digit_i·2^(6i)·G takes 42 additions and no doublings (BoringSSL's
/// `ecp_nistz256_point_mul_base` does the same with 7-bit windows).
///
/// A look-up reads all 32 entries of its window and keeps one with masks (BoringSSL's
/// `ecp_nistz256_select_w7`, STYLE.md "Constant-time code"): the addresses touched depend on the
/// window's position, which is public, never on the digit, which is secret.
enum P256SigningTable {
    /// Bits per window.
    static let windowBits = 6
    /// Windows per 256-bit scalar: 43 · 6 = 258 bits, room for the signed recoding's carry.
    static let windowCount = 43
    /// Entries per window: the multiples 1 … 32 (magnitude 0 selects none of them).
    static let entriesPerWindow = 32

    /// Window i's entries at [32·i, 32·i + 32): entry j − 1 is j·2^(6i)·G. Public data, so it is
    /// built with the verifier's variable-time arithmetic and batch inversion.
    static let points: [P256AffinePoint] = {
        var multiples: [P256JacobianPoint] = []
        multiples.reserveCapacity(windowCount * entriesPerWindow)
        var base = P256JacobianPoint(P256GeneratorTable.generator)   // 2^(6i)·G
        for _ in 0 ..< windowCount {
            var multiple = base
            multiples.append(multiple)
            for _ in 2 ... entriesPerWindow {
                multiple = multiple.adding(base)
                multiples.append(multiple)
            }
            base = multiple.doubled()   // 2 · 32·2^(6i)·G
        }
        return P256AffineBatch.affine(multiples)
    }()

    /// magnitude·2^(6·window)·G for a magnitude in 1 … 32, by reading every entry of the window
    /// and OR-ing in the one whose multiple equals `magnitude` under a mask (for magnitude 0 the
    /// result is (0, 0), which the caller masks away). No branch and no address depends on
    /// `magnitude`. Each 64-byte entry is read as four 128-bit lanes (SSE2 `pand`/`por` on
    /// x86-64, NEON on arm64); the array's storage is 16-byte aligned and the stride 64.
    @inline(__always)
    static func select(_ table: UnsafeBufferPointer<P256AffinePoint>, window: Int, magnitude: UInt64) -> P256AffinePoint {
        typealias Lane = SIMD2<UInt64>
        var a = Lane(), b = Lane(), c = Lane(), d = Lane()
        let base = UnsafeRawPointer(table.baseAddress!) + window &* entriesPerWindow &* 64
        for entry in 0 ..< entriesPerWindow {
            let mask = Lane(repeating: ConstantTimeMask.equal(magnitude, UInt64(entry &+ 1)))
            let point = base + entry &* 64
            a |= point.load(as: Lane.self) & mask
            b |= point.load(fromByteOffset: 16, as: Lane.self) & mask
            c |= point.load(fromByteOffset: 32, as: Lane.self) & mask
            d |= point.load(fromByteOffset: 48, as: Lane.self) & mask
        }
        return P256AffinePoint(x: P256FieldElement(a[0], a[1], b[0], b[1]), y: P256FieldElement(c[0], c[1], d[0], d[1]))
    }
}
