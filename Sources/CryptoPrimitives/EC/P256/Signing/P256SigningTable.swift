/// The generator's multiples for constant-time fixed-window multiplication: for each of the 64
/// four-bit windows i of a scalar, the affine points j·16^i·G for j = 1 … 15 (960 points, 60 KiB),
/// built once per process at first use. With one table per window, k·G = Σ digit_i·16^i·G takes
/// 64 additions and no doublings (a comb with one tooth per window).
///
/// A look-up reads all 15 entries of its window and keeps one with masks (BoringSSL's
/// `ecp_nistz256_select_w7`, STYLE.md "Constant-time code"): the addresses touched depend on the
/// window's position, which is public, never on the digit, which is secret.
enum P256SigningTable {
    /// Bits per window.
    static let windowBits = 4
    /// Windows per 256-bit scalar.
    static let windowCount = 64
    /// Entries per window: the multiples 1 … 15 (digit 0 selects none of them).
    static let entriesPerWindow = 15

    /// Window i's entries at [15·i, 15·i + 15): entry j − 1 is j·16^i·G. Public data, so it is
    /// built with the verifier's variable-time batch inversion.
    static let points: [P256AffinePoint] = {
        var multiples: [P256JacobianPoint] = []
        multiples.reserveCapacity(windowCount * entriesPerWindow)
        var base = P256JacobianPoint(P256GeneratorTable.generator)   // 16^i·G
        for _ in 0 ..< windowCount {
            var multiple = base
            multiples.append(multiple)
            for _ in 2 ... entriesPerWindow {
                multiple = multiple.adding(base)
                multiples.append(multiple)
            }
            base = multiple.adding(base)   // 15·16^i·G + 16^i·G
        }
        return P256AffineBatch.affine(multiples)
    }()

    /// digit·16^window·G as a projective point, (0 : 1 : 0) for digit 0, by reading every entry
    /// of the window and masking in the one whose multiple equals `digit` (0 … 15). No branch and
    /// no address depends on `digit`.
    @inline(__always)
    static func select(window: Int, digit: UInt64) -> P256ProjectivePoint {
        var x = P256FieldElement.zero, y = P256FieldElement.zero
        points.withUnsafeBufferPointer { table in
            let start = window &* entriesPerWindow
            for entry in 0 ..< entriesPerWindow {
                let mask = ConstantTimeMask.equal(digit, UInt64(entry &+ 1))
                let point = table[start &+ entry]
                x = point.x.selected(where: mask, otherwise: x)
                y = point.y.selected(where: mask, otherwise: y)
            }
        }
        let isZero = ConstantTimeMask.equal(digit, 0)
        // digit 0: (0 : 1 : 0); otherwise (x : y : 1).
        return P256ProjectivePoint(
            x: x, y: P256FieldElement.one.selected(where: isZero, otherwise: y), z: P256FieldElement.zero.selected(where: isZero, otherwise: .one))
    }
}
