/// Inversion by Fermat's little theorem, a⁻¹ = a^(m − 2) mod m for a prime m, for the
/// constant-time signer: a fixed sequence of squarings and multiplications that depends only on
/// the public exponent, never on a (BoringSSL inverts by a fixed addition chain for the same
/// reason; the verifier's divsteps branch on the value). Zero maps to zero.
extension P256FieldElement {
    /// p − 2 = 0xffffffff00000001 0000000000000000 00000000ffffffff fffffffffffffffd, limbs
    /// little-endian.
    private static var fermatExponent: LimbVector {
        LimbVector(storage: (0xffff_ffff_ffff_fffd, 0x0000_0000_ffff_ffff, 0, 0xffff_ffff_0000_0001, 0, 0))
    }

    /// self^(p − 2) mod p by left-to-right square-and-multiply over the exponent's 256 bits (the
    /// branch is on the exponent's bits, which are public constants).
    func invertedInConstantTime() -> Self {
        let exponent = Self.fermatExponent
        var result = Self.one
        for index in (0 ..< 4).reversed() {
            let limb = exponent[index]
            for bit in (0 ..< 64).reversed() {
                result = result.squared()
                if limb >> UInt64(bit) & 1 == 1 { result = result * self }
            }
        }
        return result
    }
}

extension MontgomeryResidue where Modulus == P256.Order {
    /// self^(n − 2) mod n, as above; n − 2's bits are public constants. Zero maps to zero.
    func invertedInConstantTime() -> Self {
        var exponent = Modulus.modulus
        exponent[0] = exponent[0] &- 2   // n's low limb is odd and above 2: no borrow
        var result = Self.one
        for index in (0 ..< 4).reversed() {
            let limb = exponent[index]
            for bit in (0 ..< 64).reversed() {
                result = result.squared()
                if limb >> UInt64(bit) & 1 == 1 { result = result * self }
            }
        }
        return result
    }
}
