/// The comb's addition for the constant-time signer: a Jacobian accumulator plus an affine table
/// point, "madd-2007-bl" (Explicit-Formulas Database, 7M + 4S) with the point at infinity on
/// either side handled by masks, as BoringSSL's `ecp_nistz256_point_add_affine` does. The
/// formulas are not complete (P = ±Q would give a wrong point), and the comb never gives them
/// those inputs, for every k in [1, n − 1] (the argument is at `P256ConstantTimeSigning`).
extension P256JacobianPoint {
    /// self + Q, where Q is the table point and `qIsInfinity` all ones when the digit was 0 (Q
    /// is then ignored). self may be the point at infinity (Z = 0): the sum is then Q, as
    /// (x : y : 1). The same field operations run in every case; the case is chosen by masks.
    @inline(__always)
    func addingInConstantTime(_ q: P256AffinePoint, qIsInfinity: UInt64) -> Self {
        let selfIsInfinity = ConstantTimeMask.isZero(z.l0 | z.l1 | z.l2 | z.l3)
        let (added, _, _) = mixedSum(q)
        let (x3, y3, z3) = (added.x, added.y, added.z)
        // self at infinity: (x : y : 1); Q at infinity: self.
        let sum = Self(
            x: q.x.selected(where: selfIsInfinity, otherwise: x3), y: q.y.selected(where: selfIsInfinity, otherwise: y3),
            z: P256FieldElement.one.selected(where: selfIsInfinity, otherwise: z3))
        return Self(
            x: x.selected(where: qIsInfinity, otherwise: sum.x), y: y.selected(where: qIsInfinity, otherwise: sum.y),
            z: z.selected(where: qIsInfinity, otherwise: sum.z))
    }

    /// The affine point (X/Z², Y/Z³) with Z⁻¹ by constant-time divsteps. The signer never has
    /// the point at infinity here (k is in [1, n − 1]); it would give (0, 0).
    @inline(__always)
    func affineInConstantTime() -> P256AffinePoint {
        let zInverse = z.invertedInConstantTime()
        let zInverse2 = zInverse.squared()
        return P256AffinePoint(x: x * zInverse2, y: y * zInverse2 * zInverse)
    }
}
