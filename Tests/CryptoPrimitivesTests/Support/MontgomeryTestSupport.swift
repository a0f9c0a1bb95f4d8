@testable import CryptoPrimitives
import ReceiptTestSupport

/// The big-integer internals on little-endian limb arrays, for the package's tests (to check them
/// against a plain reference), reached through `@testable import`: test code, not part of the
/// shipped module.
///
/// Moduli must be odd with a non-zero top limb and more than one limb or a value above 1; operands
/// of the Montgomery operations must have exactly the modulus's limb count and be below it.
enum MontgomeryTestSupport {
    /// a·b·R⁻¹ mod n, R = 2^(64·n.count).
    static func multiply(_ a: [UInt64], _ b: [UInt64], modulus n: [UInt64]) -> [UInt64] {
        run(n, a, b) { arithmetic, result, a, b in arithmetic.multiply(result, a, b) }
    }

    /// a²·R⁻¹ mod n.
    static func square(_ a: [UInt64], modulus n: [UInt64]) -> [UInt64] {
        run(n, a, a) { arithmetic, result, a, _ in arithmetic.square(result, a) }
    }

    /// a·R⁻¹ mod n.
    static func reduce(_ a: [UInt64], modulus n: [UInt64]) -> [UInt64] {
        run(n, a, a) { arithmetic, result, a, _ in arithmetic.reduce(result, a) }
    }

    /// x·R mod n, by long division.
    static func enter(_ x: [UInt64], modulus n: [UInt64]) -> [UInt64] {
        run(n, x, x) { arithmetic, result, x, _ in arithmetic.enter(result, x) }
    }

    /// base^exponent mod n by the public-exponent path (base < n).
    static func power(_ base: [UInt64], exponent: UInt64, modulus n: [UInt64]) -> [UInt64] {
        run(n, base, base) { arithmetic, result, base, _ in arithmetic.power(result, base, exponent: exponent) }
    }

    /// base^exponent mod n by the windowed (private-exponent) path (base < n).
    static func power(_ base: [UInt64], exponent: [UInt64], modulus n: [UInt64]) -> [UInt64] {
        run(n, base, base) { arithmetic, result, base, _ in arithmetic.power(result, base, exponent: exponent) }
    }

    /// (x·2^(64·shift)) mod n for any x, by long division; n only needs a non-zero top limb.
    static func remainder(_ x: [UInt64], shiftedByLimbs shift: Int, modulus n: [UInt64]) -> [UInt64] {
        precondition(!n.isEmpty && n.last! != 0)
        return [UInt64](unsafeUninitializedCapacity: n.count) { result, initialized in
            (x.isEmpty ? [0] : x).withUnsafeBufferPointer { x in
                n.withUnsafeBufferPointer { n in
                    Limbs.remainder(
                        x.baseAddress!, count: x.count, shiftedByLimbs: shift,
                        modulo: n.baseAddress!, count: n.count, into: result.baseAddress!)
                }
            }
            initialized = n.count
        }
    }

    private static func run(
        _ n: [UInt64], _ a: [UInt64], _ b: [UInt64],
        _ body: (MontgomeryArithmetic, UnsafeMutablePointer<UInt64>, UnsafePointer<UInt64>, UnsafePointer<UInt64>) -> Void
    ) -> [UInt64] {
        precondition(a.count == n.count && b.count == n.count)
        let modulus = MontgomeryModulus(n)
        return [UInt64](unsafeUninitializedCapacity: n.count) { result, initialized in
            modulus.withArithmetic { arithmetic in
                a.withUnsafeBufferPointer { a in
                    b.withUnsafeBufferPointer { b in
                        body(arithmetic, result.baseAddress!, a.baseAddress!, b.baseAddress!)
                    }
                }
            }
            initialized = n.count
        }
    }
}
