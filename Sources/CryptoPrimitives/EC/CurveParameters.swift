/// A short Weierstrass curve y² = x³ − 3x + b over a prime field with a prime group order
/// (cofactor 1), as the NIST curves of SEC 2 §2.4.2 / §2.5.1 (FIPS 186-5 / SP 800-186 §3.2.1).
package protocol WeierstrassCurve {
    /// The field of coordinates, p.
    associatedtype Field: PrimeModulus
    /// The order of the generator, n (scalars and signature values live modulo n).
    associatedtype Order: PrimeModulus
    /// The curve coefficient b (plain, not Montgomery form).
    static var b: LimbVector { get }
    /// The base point G (plain coordinates).
    static var generatorX: LimbVector { get }
    static var generatorY: LimbVector { get }
    /// Odd multiples of G, affine, for the wNAF multiplication of `generatorWindow`; a
    /// `static let` in each conformer: computed once, on first use, thread-safely.
    static var generatorTable: GeneratorTable<Self> { get }
    /// wNAF width for scalars of G: digits are odd and below 2^w in magnitude, the table holds
    /// 2^(w−1) points.
    static var generatorWindow: Int { get }
    /// wNAF width for scalars of the public key (its table is built on every verification).
    static var publicKeyWindow: Int { get }
    /// ECDSA verification steps 6–8 (FIPS 186-5 §6.4.2): whether u1·G + u2·Q is finite with
    /// x-coordinate ≡ r (mod n). The generic arithmetic unless a curve has its own.
    static func jointMultipleMatches(
        generatorScalar u1: LimbVector, publicKeyScalar u2: LimbVector, publicKey: AffinePoint<Self>, r: LimbVector
    ) -> Bool
}

extension WeierstrassCurve {
    package static func jointMultipleMatches(
        generatorScalar u1: LimbVector, publicKeyScalar u2: LimbVector, publicKey: AffinePoint<Self>, r: LimbVector
    ) -> Bool {
        ECDSAVerification<Self>.jointMultipleMatches(generatorScalar: u1, publicKeyScalar: u2, publicKey: publicKey, r: r)
    }
}

extension WeierstrassCurve {
    /// Field and order size in bytes (both 32 for P-256, 48 for P-384: the order's bit length
    /// is a multiple of 8, so digest truncation works on whole bytes).
    package static var byteCount: Int { 8 * Field.limbCount }

    /// Bits of the order: the length of every scalar.
    static var scalarBitCount: Int { 64 * Order.limbCount }
}

/// NIST P-256 (secp256r1, SEC 2 §2.4.2): p = 2^256 − 2^224 + 2^192 + 2^96 − 1.
package enum P256: WeierstrassCurve {
    package enum Field: PrimeModulus {
        package static var limbCount: Int { 4 }
        package static var modulus: LimbVector {
            LimbVector(storage: (0xffffffffffffffff, 0x00000000ffffffff, 0x0000000000000000, 0xffffffff00000001, 0, 0))
        }
        package static var negativeInverse: UInt64 { 1 }
        package static var rSquared: LimbVector {
            LimbVector(storage: (0x0000000000000003, 0xfffffffbffffffff, 0xfffffffffffffffe, 0x00000004fffffffd, 0, 0))
        }
    }

    package enum Order: PrimeModulus {
        package static var limbCount: Int { 4 }
        package static var modulus: LimbVector {
            LimbVector(storage: (0xf3b9cac2fc632551, 0xbce6faada7179e84, 0xffffffffffffffff, 0xffffffff00000000, 0, 0))
        }
        package static var negativeInverse: UInt64 { 0xccd1c8aaee00bc4f }
        package static var rSquared: LimbVector {
            LimbVector(storage: (0x83244c95be79eea2, 0x4699799c49bd6fa6, 0x2845b2392b6bec59, 0x66e12d94f3d95620, 0, 0))
        }
    }

    package static var b: LimbVector {
        LimbVector(storage: (0x3bce3c3e27d2604b, 0x651d06b0cc53b0f6, 0xb3ebbd55769886bc, 0x5ac635d8aa3a93e7, 0, 0))
    }
    package static var generatorX: LimbVector {
        LimbVector(storage: (0xf4a13945d898c296, 0x77037d812deb33a0, 0xf8bce6e563a440f2, 0x6b17d1f2e12c4247, 0, 0))
    }
    package static var generatorY: LimbVector {
        LimbVector(storage: (0xcbb6406837bf51f5, 0x2bce33576b315ece, 0x8ee7eb4a7c0f9e16, 0x4fe342e2fe1a7f9b, 0, 0))
    }
    package static let generatorTable = GeneratorTable<P256>()
    package static var generatorWindow: Int { 7 }
    package static var publicKeyWindow: Int { 4 }

    /// Verification on the dedicated four-limb field (`P256JointMultiplication`).
    package static func jointMultipleMatches(
        generatorScalar u1: LimbVector, publicKeyScalar u2: LimbVector, publicKey: AffinePoint<P256>, r: LimbVector
    ) -> Bool {
        let q = P256AffinePoint(x: P256FieldElement(montgomery: publicKey.x.montgomery), y: P256FieldElement(montgomery: publicKey.y.montgomery))
        return P256JointMultiplication.matches(u1: u1, u2: u2, publicKey: q, r: r)
    }
}

/// NIST P-384 (secp384r1, SEC 2 §2.5.1): p = 2^384 − 2^128 − 2^96 + 2^32 − 1.
package enum P384: WeierstrassCurve {
    package enum Field: PrimeModulus {
        package static var limbCount: Int { 6 }
        package static var modulus: LimbVector {
            LimbVector(
                storage: (
                    0x00000000ffffffff, 0xffffffff00000000, 0xfffffffffffffffe,
                    0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff
                ))
        }
        package static var negativeInverse: UInt64 { 0x100000001 }
        package static var rSquared: LimbVector {
            LimbVector(
                storage: (
                    0xfffffffe00000001, 0x0000000200000000, 0xfffffffe00000000,
                    0x0000000200000000, 0x0000000000000001, 0x0000000000000000
                ))
        }
    }

    package enum Order: PrimeModulus {
        package static var limbCount: Int { 6 }
        package static var modulus: LimbVector {
            LimbVector(
                storage: (
                    0xecec196accc52973, 0x581a0db248b0a77a, 0xc7634d81f4372ddf,
                    0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff
                ))
        }
        package static var negativeInverse: UInt64 { 0x6ed46089e88fdc45 }
        package static var rSquared: LimbVector {
            LimbVector(
                storage: (
                    0x2d319b2419b409a9, 0xff3d81e5df1aa419, 0xbc3e483afcb82947,
                    0xd40d49174aab1cc5, 0x3fb05b7a28266895, 0x0c84ee012b39bf21
                ))
        }
    }

    package static var b: LimbVector {
        LimbVector(
            storage: (
                0x2a85c8edd3ec2aef, 0xc656398d8a2ed19d, 0x0314088f5013875a,
                0x181d9c6efe814112, 0x988e056be3f82d19, 0xb3312fa7e23ee7e4
            ))
    }
    package static var generatorX: LimbVector {
        LimbVector(
            storage: (
                0x3a545e3872760ab7, 0x5502f25dbf55296c, 0x59f741e082542a38,
                0x6e1d3b628ba79b98, 0x8eb1c71ef320ad74, 0xaa87ca22be8b0537
            ))
    }
    package static var generatorY: LimbVector {
        LimbVector(
            storage: (
                0x7a431d7c90ea0e5f, 0x0a60b1ce1d7e819d, 0xe9da3113b5f0b8c0,
                0xf8f41dbd289a147c, 0x5d9e98bf9292dc29, 0x3617de4a96262c6f
            ))
    }
    package static let generatorTable = GeneratorTable<P384>()
    package static var generatorWindow: Int { 7 }
    package static var publicKeyWindow: Int { 4 }
}
