import CryptoPrimitives

/// An RSA private key that makes RSASSA-PKCS1-v1_5 signatures, for building synthetic test data.
///
/// Test support only (`package` access): not constant-time, no blinding, no key checks beyond
/// sizes. Signs with the Chinese remainder theorem (RFC 8017 §5.1.2 step 2b).
package struct RSAPrivateKey: Sendable {
    /// The matching public key.
    package let publicKey: RSAPublicKey
    private let p: MontgomeryModulus, q: MontgomeryModulus
    private let dP: [UInt64], dQ: [UInt64], qInv: [UInt64]

    /// Creates a key from the big-endian fields of `RSAPrivateKey` (RFC 8017 §A.1.2).
    /// `privateExponent` is accepted for completeness; signing uses the CRT fields. Traps on a
    /// malformed key (test input).
    package init(
        modulus: [UInt8], publicExponent: [UInt8], privateExponent: [UInt8],
        prime1: [UInt8], prime2: [UInt8], exponent1: [UInt8], exponent2: [UInt8], coefficient: [UInt8]
    ) {
        do {
            publicKey = try RSAPublicKey(modulus: modulus, exponent: publicExponent)
        } catch {
            preconditionFailure("invalid RSA test key: \(error)")
        }
        func limbs(_ bytes: [UInt8]) -> [UInt64] { bytes.withUnsafeBytes { Limbs.minimal(bigEndian: $0) } }
        p = MontgomeryModulus(limbs(prime1))
        q = MontgomeryModulus(limbs(prime2))
        dP = limbs(exponent1)
        dQ = limbs(exponent2)
        qInv = Self.padded(limbs(coefficient), to: p.count)
        precondition(Limbs.bitCount(limbs(privateExponent)) > 0 && Limbs.bitCount(qInv) > 0, "invalid RSA test key")
    }

    /// The RSASSA-PKCS1-v1_5 signature (RFC 8017 §8.2.1) of an already computed digest:
    /// `modulusByteCount` bytes. Traps when the digest length does not match `algorithm`.
    package func signPKCS1v15(digest: Digest, algorithm: HashAlgorithm) -> [UInt8] {
        let byteCount = publicKey.modulusByteCount
        var encoded = [UInt8](repeating: 0, count: byteCount)
        let isEncoded = encoded.withUnsafeMutableBytes { PKCS1.encode(digest, algorithm, into: $0) }
        precondition(isEncoded, "digest length does not match the algorithm, or the key is too small")
        let m = encoded.withUnsafeBytes { Limbs.minimal(bigEndian: $0) }
        let s = signature(of: m)
        var signature = [UInt8](repeating: 0, count: byteCount)
        s.withUnsafeBufferPointer { limbs in
            signature.withUnsafeMutableBytes { Limbs.store(limbs.baseAddress!, count: limbs.count, bigEndianInto: $0) }
        }
        return signature
    }

    /// s = m^d mod n by CRT: s1 = m^dP mod p, s2 = m^dQ mod q, h = qInv·(s1 − s2) mod p, s = s2 + q·h.
    private func signature(of m: [UInt64]) -> [UInt64] {
        let s1 = power(m, dP, modulo: p)
        let s2 = power(m, dQ, modulo: q)
        var h = Self.remainder(s2, modulo: p)
        p.limbs.withUnsafeBufferPointer { n in
            s1.withUnsafeBufferPointer { s1 in
                h.withUnsafeMutableBufferPointer { h in
                    if Limbs.subtract(h.baseAddress!, s1.baseAddress!, h.baseAddress!, count: n.count) != 0 {
                        Limbs.add(h.baseAddress!, h.baseAddress!, n.baseAddress!, count: n.count)
                    }
                }
            }
        }
        p.withArithmetic { arithmetic in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: p.count) { montgomeryQInv in
                qInv.withUnsafeBufferPointer { qInv in
                    h.withUnsafeMutableBufferPointer { h in
                        arithmetic.enter(montgomeryQInv.baseAddress!, qInv.baseAddress!)   // qInv·R
                        arithmetic.multiply(h.baseAddress!, h.baseAddress!, montgomeryQInv.baseAddress!)   // h·qInv
                    }
                }
            }
        }
        var s = Self.product(q.limbs, h)
        let addend = Self.padded(s2, to: s.count)
        addend.withUnsafeBufferPointer { addend in
            s.withUnsafeMutableBufferPointer { s in
                let carry = Limbs.add(s.baseAddress!, s.baseAddress!, addend.baseAddress!, count: s.count)
                precondition(carry == 0, "invalid RSA test key")   // s < n
            }
        }
        return s
    }

    /// m^exponent mod modulus, as `modulus.count` limbs.
    private func power(_ m: [UInt64], _ exponent: [UInt64], modulo modulus: MontgomeryModulus) -> [UInt64] {
        let base = Self.remainder(m, modulo: modulus)
        var result = [UInt64](repeating: 0, count: modulus.count)
        modulus.withArithmetic { arithmetic in
            base.withUnsafeBufferPointer { base in
                result.withUnsafeMutableBufferPointer { result in
                    arithmetic.power(result.baseAddress!, base.baseAddress!, exponent: exponent)
                }
            }
        }
        return result
    }

    /// x mod modulus, as `modulus.count` limbs, by long division.
    private static func remainder(_ x: [UInt64], modulo modulus: MontgomeryModulus) -> [UInt64] {
        guard !x.isEmpty else { return [UInt64](repeating: 0, count: modulus.count) }
        return [UInt64](unsafeUninitializedCapacity: modulus.count) { result, initialized in
            x.withUnsafeBufferPointer { x in
                modulus.limbs.withUnsafeBufferPointer { n in
                    Limbs.remainder(
                        x.baseAddress!, count: x.count, shiftedByLimbs: 0,
                        modulo: n.baseAddress!, count: n.count, into: result.baseAddress!)
                }
            }
            initialized = modulus.count
        }
    }

    /// The schoolbook product a·b, a.count + b.count limbs.
    private static func product(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var result = [UInt64](repeating: 0, count: a.count + b.count)
        for i in 0 ..< a.count {
            var carry: UInt64 = 0
            for j in 0 ..< b.count { result[i + j] = Limbs.multiplyAdd(a[i], b[j], result[i + j], &carry) }
            result[i + b.count] = carry
        }
        return result
    }

    private static func padded(_ limbs: [UInt64], to count: Int) -> [UInt64] {
        precondition(limbs.count <= count, "invalid RSA test key")
        return limbs + [UInt64](repeating: 0, count: count - limbs.count)
    }
}

extension MontgomeryArithmetic {
    /// result = base^exponent mod n with a fixed 4-bit window, for long (private) exponents given
    /// as little-endian limbs. Not constant-time: test support only.
    package func power(_ result: UnsafeMutablePointer<UInt64>, _ base: UnsafePointer<UInt64>, exponent: [UInt64]) {
        let k = count
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 17 * k) { table in
            let powers = table.baseAddress!, one = powers + 16 * k
            // powers[i] = base^i·R mod n; powers[0] = R mod n = 1·R.
            one.initialize(repeating: 0, count: k)
            one[0] = 1
            enter(powers, one)
            enter(powers + k, base)
            for i in 2 ..< 16 { multiply(powers + i * k, powers + (i - 1) * k, powers + k) }
            result.update(from: powers, count: k)
            let bits = Limbs.bitCount(exponent)
            var position = (bits + 3) / 4 * 4
            while position > 0 {
                position -= 4
                for _ in 0 ..< 4 { square(result, result) }
                let window = Int(exponent[position / 64] >> UInt64(position % 64) & 0xf)
                if window != 0 { multiply(result, result, powers + window * k) }
            }
            reduce(result, result)
        }
    }
}
