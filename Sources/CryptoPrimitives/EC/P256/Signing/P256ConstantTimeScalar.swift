/// Branch-free operations on scalars modulo P-256's order n, for the signer: range checks whose
/// result alone is revealed, reduction of a value below 2n, and the low-S choice.
enum P256ConstantTimeScalar {
    static var order: LimbVector { P256.Order.modulus }

    /// Whether 1 ≤ value < n (FIPS 186-5 §6.2.1, the private key and each nonce), computed with
    /// masks over every limb; only the answer depends on the value, not the time.
    static func isInRange(_ value: LimbVector) -> Bool {
        let below = value.subtractingInConstantTime(order, count: 4).borrowMask
        return below & ~value.isZeroMask(count: 4) != 0
    }

    /// value mod n for a value below 2n (a field element, p < 2n; a truncated digest): n is
    /// subtracted, and the difference kept by a mask unless it borrowed.
    @inline(__always)
    static func reducedOnce(_ value: LimbVector) -> LimbVector {
        let (difference, borrowed) = value.subtractingInConstantTime(order, count: 4)
        return LimbVector.select(borrowed, value, difference, count: 4)
    }

    /// min(s, n − s) for s in [1, n − 1], chosen by a mask (low S, as BIP 62 and most signers
    /// make it; either s verifies, FIPS 186-5 §6.4.2): s > (n − 1)/2 exactly when (n − 1)/2 − s
    /// borrows.
    @inline(__always)
    static func lowS(_ s: LimbVector) -> LimbVector {
        let halfOrder = order.shiftedRight(insertingTopBit: 0, count: 4)   // (n − 1)/2, n odd
        let isHigh = halfOrder.subtractingInConstantTime(s, count: 4).borrowMask
        return LimbVector.select(isHigh, order.subtractingInConstantTime(s, count: 4).difference, s, count: 4)
    }
}
