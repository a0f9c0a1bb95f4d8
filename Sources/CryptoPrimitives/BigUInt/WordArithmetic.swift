// Word arithmetic for the limb code (the P-256 field, the generic limbs' carries and products, the
// divsteps' accumulators) without the standard library's 128-bit integers, which need macOS 15 /
// iOS 18: this package builds for SwiftPM's default Apple targets, macOS 10.13 and iOS 12
// (DESIGN §15). Built on `multipliedFullWidth(by:)` and `addingReportingOverflow(_:)`, spelled so
// that the compiler emits the `mul`, `add` and `adc` the 128-bit types gave (checked in the
// assembly and with callgrind: Benchmarks/README.md, "Apple's default deployment targets").

/// 1 for true, 0 for false, with no branch: a `Bool` is one byte holding 0 or 1 (the Swift ABI's
/// `Builtin.Int1`), read as a byte. The obvious `flag ? 1 : 0` reached LLVM as control flow that
/// it did not always turn back into a select: a chain of four carries became branches.
@inline(__always)
package func carryBit(_ flag: Bool) -> UInt64 {
    UInt64(unsafeBitCast(flag, to: UInt8.self))
}

extension UInt64 {
    /// self + other + carry (carry 0 or 1); carry becomes the carry out. In a chain this is one
    /// `adc` per word: LLVM folds two add-with-overflows whose flags are OR-ed into one
    /// add-with-carry ("carry diamond", DAGCombiner).
    @inline(__always)
    package func addingWithCarry(_ other: UInt64, _ carry: inout UInt64) -> UInt64 {
        let (partial, first) = addingReportingOverflow(other)
        let (sum, second) = partial.addingReportingOverflow(carry)
        carry = carryBit(first) | carryBit(second)
        return sum
    }

    /// The low word of self·factor + addend + carry; carry becomes its high word (the sum is
    /// below 2^128, so nothing is lost: (2^64 − 1)² + 2·(2^64 − 1) = 2^128 − 1).
    @inline(__always)
    package func multipliedAdding(_ factor: UInt64, _ addend: UInt64, _ carry: inout UInt64) -> UInt64 {
        let (high, low) = fullWidthProduct(factor)
        let (partial, first) = low.addingReportingOverflow(addend)
        let (sum, second) = partial.addingReportingOverflow(carry)
        carry = high &+ carryBit(first) &+ carryBit(second)
        return sum
    }
}

extension UInt64 {
    /// self·other as two words, the limb code's one product. Natively `multipliedFullWidth(by:)`
    /// (one `mul`); on wasm32, which has no 64×64→128-bit product, `productByHalves`, inlined:
    /// LLVM would otherwise call `__multi3`, a 128×128-bit product (six multiplications and a
    /// call for each limb product, Wasm/Runtime/Multiply.c).
    @inline(__always)
    package func fullWidthProduct(_ other: UInt64) -> (high: UInt64, low: UInt64) {
        #if arch(wasm32)
            return productByHalves(other)
        #else
            let (high, low) = multipliedFullWidth(by: other)
            return (high, low)
        #endif
    }

    /// self·other from four 32×32→64-bit products of the words' halves (schoolbook, base 2^32).
    /// `middle`, the bits 32–95 before their carries, is at most 3·(2^32 − 1), so nothing
    /// overflows. Compiled everywhere so that the tests compare it with `multipliedFullWidth`.
    @inline(__always)
    package func productByHalves(_ other: UInt64) -> (high: UInt64, low: UInt64) {
        let (a0, a1, b0, b1) = (self & 0xFFFF_FFFF, self >> 32, other & 0xFFFF_FFFF, other >> 32)
        let (p00, p01, p10, p11) = (a0 &* b0, a0 &* b1, a1 &* b0, a1 &* b1)
        let middle = (p00 >> 32) &+ (p01 & 0xFFFF_FFFF) &+ (p10 & 0xFFFF_FFFF)
        return (p11 &+ (p01 >> 32) &+ (p10 >> 32) &+ (middle >> 32), middle << 32 | p00 & 0xFFFF_FFFF)
    }
}

/// A 128-bit two's-complement value on two 64-bit words (the high one signed), for the divsteps'
/// signed accumulators (`DivstepInverse`), where the standard library's signed 128-bit integer
/// was. Only the operations used there: wrapping addition, a signed 64×64-bit product, an
/// arithmetic right shift.
package struct SignedDoubleWord: Equatable {
    /// Bits 64–127, signed: the value's sign.
    package var high: Int64
    /// Bits 0–63.
    package var low: UInt64

    @inline(__always)
    package init(high: Int64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// a·b, in full (never wraps: |a·b| ≤ 2^126).
    @inline(__always)
    package static func product(_ a: Int64, _ b: Int64) -> Self {
        let (high, low) = a.multipliedFullWidth(by: b)
        return Self(high: high, low: low)
    }

    /// a + b mod 2^128: the low words' carry goes into the high words' sum.
    @inline(__always)
    package static func &+ (a: Self, b: Self) -> Self {
        let (low, carry) = a.low.addingReportingOverflow(b.low)
        return Self(high: a.high &+ b.high &+ Int64(bitPattern: carryBit(carry)), low: low)
    }

    /// value >> shift, arithmetic (rounds toward −∞), for a shift in 1 … 63.
    @inline(__always)
    package static func >> (value: Self, shift: Int) -> Self {
        Self(high: value.high &>> shift, low: value.low &>> shift | UInt64(bitPattern: value.high) &<< (64 - shift))
    }

    @inline(__always)
    package static func >>= (value: inout Self, shift: Int) {
        value = value >> shift
    }
}
