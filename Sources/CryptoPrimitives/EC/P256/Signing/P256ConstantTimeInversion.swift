/// Z⁻¹ mod p and k⁻¹ mod n for the constant-time signer, by the fixed 590 divsteps of
/// `DivstepInverse.inverseInConstantTime` (libsecp256k1's constant-time safegcd): no branch and
/// no address depends on the value. About a fifth of Fermat's a^(m − 2), which BoringSSL uses.
extension P256FieldElement {
    /// The divsteps for p, made once.
    static let constantTimeInverter = DivstepInverse(modulus: P256.Field.modulus)

    /// R³ mod p (R = 2^256): the Montgomery product of (aR)⁻¹ with it is a⁻¹R.
    @inline(__always) static var rCubed: Self {
        Self(0xffff_fffd_0000_000a, 0xffff_ffed_ffff_fff7, 0x0000_0005_ffff_fffc, 0x0000_0018_0000_0001)
    }

    /// self⁻¹ mod p in Montgomery form; zero for zero. The limbs aR are inverted as a plain
    /// value, giving a⁻¹R⁻¹, then multiplied by R³ (times R⁻¹): a⁻¹R.
    func invertedInConstantTime() -> Self {
        Self(montgomery: Self.constantTimeInverter.inverseInConstantTime(of: montgomery)) * Self.rCubed
    }
}

extension P256ConstantTimeScalar {
    /// The divsteps for n, made once.
    static let inverter = DivstepInverse(modulus: P256.Order.modulus)

    /// k⁻¹ mod n for a plain k in [1, n − 1], plain.
    static func inverse(_ k: LimbVector) -> LimbVector {
        inverter.inverseInConstantTime(of: k)
    }
}
