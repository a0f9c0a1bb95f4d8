/// Helpers for unsigned integers stored as little-endian arrays of 64-bit limbs (limb 0 is the
/// least significant). Fixed-width: callers size every buffer to the modulus.
package enum Limbs {
    /// The limbs of a big-endian magnitude, with leading zeros dropped (empty for zero).
    package static func minimal(bigEndian bytes: UnsafeRawBufferPointer) -> [UInt64] {
        var first = 0
        while first < bytes.count && bytes[first] == 0 { first += 1 }
        let significant = UnsafeRawBufferPointer(rebasing: bytes[first...])
        let count = (significant.count + 7) / 8
        return [UInt64](unsafeUninitializedCapacity: count) { limbs, initialized in
            let fits = load(bigEndian: significant, into: limbs.baseAddress!, count: count)
            assert(fits)
            initialized = count
        }
    }

    /// Loads a big-endian magnitude into exactly `count` limbs, zero-extended.
    /// Returns `false` (leaving the limbs unspecified) when the value needs more limbs.
    static func load(bigEndian bytes: UnsafeRawBufferPointer, into limbs: UnsafeMutablePointer<UInt64>, count: Int) -> Bool {
        var end = bytes.count
        for index in 0 ..< count {
            if end >= 8 {
                limbs[index] = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self))
                end -= 8
            } else {
                var limb: UInt64 = 0
                for offset in 0 ..< end { limb = limb << 8 | UInt64(bytes[offset]) }
                limbs[index] = limb
                end = 0
            }
        }
        for offset in 0 ..< end where bytes[offset] != 0 { return false }
        return true
    }

    /// Stores the value big-endian into all of `bytes`, most significant bytes first; the value
    /// must fit (`precondition`).
    package static func store(_ limbs: UnsafePointer<UInt64>, count: Int, bigEndianInto bytes: UnsafeMutableRawBufferPointer) {
        var end = bytes.count
        for index in 0 ..< count {
            let limb = limbs[index]
            if end >= 8 {
                bytes.storeBytes(of: limb.bigEndian, toByteOffset: end - 8, as: UInt64.self)
                end -= 8
            } else {
                precondition(end == 0 ? limb == 0 : limb >> (8 * UInt64(end)) == 0, "value does not fit")
                for offset in 0 ..< end { bytes[end - 1 - offset] = UInt8(truncatingIfNeeded: limb >> (8 * UInt64(offset))) }
                end = 0
            }
        }
        for offset in 0 ..< end { bytes[offset] = 0 }
    }

    /// The minimal big-endian bytes of a value (empty for zero).
    static func minimalBigEndian(_ limbs: [UInt64]) -> [UInt8] {
        let byteCount = (bitCount(limbs) + 7) / 8
        return [UInt8](unsafeUninitializedCapacity: byteCount) { bytes, initialized in
            limbs.withUnsafeBufferPointer { store($0.baseAddress!, count: $0.count, bigEndianInto: UnsafeMutableRawBufferPointer(bytes)) }
            initialized = byteCount
        }
    }

    /// The position of the highest set bit plus one (0 for zero).
    package static func bitCount(_ limbs: [UInt64]) -> Int {
        guard let top = limbs.lastIndex(where: { $0 != 0 }) else { return 0 }
        return 64 * top + (64 - limbs[top].leadingZeroBitCount)
    }

    /// −1, 0 or 1 as `a` is less than, equal to or greater than `b`.
    static func compare(_ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>, count: Int) -> Int {
        var index = count
        while index > 0 {
            index -= 1
            if a[index] != b[index] { return a[index] < b[index] ? -1 : 1 }
        }
        return 0
    }

    /// `result = a − b`; returns the borrow out (0 or 1). `result` may alias `a` or `b`.
    @discardableResult
    package static func subtract(
        _ result: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>, count: Int
    ) -> UInt64 {
        var borrow: UInt64 = 0
        for index in 0 ..< count {
            let x = a[index], y = b[index]
            let d1 = x &- y
            let d2 = d1 &- borrow
            result[index] = d2
            borrow = (x < y ? 1 : 0) | (d1 < borrow ? 1 : 0)
        }
        return borrow
    }

    /// `result = a + b`; returns the carry out (0 or 1). `result` may alias `a` or `b`.
    @discardableResult
    package static func add(_ result: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>, count: Int) -> UInt64 {
        var carry: UInt64 = 0
        for index in 0 ..< count { result[index] = a[index].addingWithCarry(b[index], &carry) }
        return carry
    }

    /// One step of schoolbook multiplication: returns the low limb of `a·b + addend + carry` and
    /// leaves the high limb in `carry` (the sum never exceeds 128 bits): `UInt64.multipliedAdding`.
    @inline(__always)
    package static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ addend: UInt64, _ carry: inout UInt64) -> UInt64 {
        a.multipliedAdding(b, addend, &carry)
    }

    /// remainder = (x·2^(64·shift)) mod v, for the `xCount`-limb x and the `count`-limb divisor v
    /// (top limb non-zero): Knuth TAOCP vol. 2 §4.3.1 Algorithm D. `remainder` gets `count` limbs
    /// and may alias neither input.
    ///
    /// Each quotient limb is estimated from the top two limbs of the normalised remainder and the
    /// top limb of the divisor, corrected with the second divisor limb (step D3: at most one too
    /// large afterwards), multiplied out and subtracted (D4), and added back when that went
    /// negative (D6). The quotient itself is not kept.
    package static func remainder(
        _ x: UnsafePointer<UInt64>, count xCount: Int, shiftedByLimbs shift: Int,
        modulo v: UnsafePointer<UInt64>, count: Int, into remainder: UnsafeMutablePointer<UInt64>
    ) {
        precondition(count > 0 && v[count - 1] != 0 && xCount >= 0 && shift >= 0)
        let k = count, total = xCount + shift
        guard total >= k else {   // fewer limbs than v: already reduced
            remainder.initialize(repeating: 0, count: k)
            if xCount > 0 { (remainder + shift).update(from: x, count: xCount) }
            return
        }
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: total + 1 + k) { buffer in
            let u = buffer.baseAddress!, vn = u + total + 1
            // D1: normalise, so that the divisor's top bit is set.
            let bits = UInt64(v[k - 1].leadingZeroBitCount)
            shiftLeft(vn, v, count: k, by: bits)
            u.initialize(repeating: 0, count: shift)
            u[total] = shiftLeft(u + shift, x, count: xCount, by: bits)
            let vTop = vn[k - 1], vNext = k > 1 ? vn[k - 2] : 0
            let reciprocal = Self.reciprocal(vTop)
            var row = u + (total - k)   // u[j…j+k], j = total − k … 0
            while true {
                // D3: estimate q̂ from row[k], row[k−1] (row[k] ≤ vTop holds throughout).
                let top = row[k], next = row[k - 1]
                var estimate: UInt64, estimateRemainder: UInt64, remainderOverflows: Bool
                if top >= vTop {
                    estimate = .max
                    (estimateRemainder, remainderOverflows) = next.addingReportingOverflow(vTop)
                } else {
                    (estimate, estimateRemainder) = Self.divide(top, next, by: vTop, reciprocal: reciprocal)
                    remainderOverflows = false
                }
                if k > 1 {
                    let third = row[k - 2]
                    while !remainderOverflows {
                        let (high, low) = estimate.fullWidthProduct(vNext)
                        guard high > estimateRemainder || (high == estimateRemainder && low > third) else { break }
                        estimate -= 1
                        (estimateRemainder, remainderOverflows) = estimateRemainder.addingReportingOverflow(vTop)
                    }
                }
                // D4: row −= q̂·v. With carry ≤ 2^64 − 1, q̂·v[i] + carry ≤ (2^64 − 1)·2^64, and
                // the high limb reaches 2^64 − 1 only with a zero low limb (no borrow), so the next
                // carry fits again.
                var carry: UInt64 = 0
                var i = 0
                while i < k {
                    let (high, low) = estimate.fullWidthProduct(vn[i])
                    let (product, productCarry) = low.addingReportingOverflow(carry)
                    let (difference, borrow) = row[i].subtractingReportingOverflow(product)
                    row[i] = difference
                    carry = high &+ (productCarry ? 1 : 0) &+ (borrow ? 1 : 0)
                    i &+= 1
                }
                let (difference, borrow) = row[k].subtractingReportingOverflow(carry)
                row[k] = difference
                // D6: q̂ was one too large; add v back (the carry out cancels the borrow).
                if borrow {
                    row[k] &+= add(row, row, vn, count: k)
                }
                if row == u { break }
                row -= 1
            }
            // D8: un-normalise the remainder, u[0..<k] (u[k…] are zero now).
            for i in 0 ..< k {
                let high = i + 1 < k ? u[i + 1] : 0
                remainder[i] = bits == 0 ? u[i] : u[i] >> bits | high << (64 - bits)
            }
        }
    }

    /// ⌊(2^128 − 1)/d⌋ − 2^64 for a normalised d (top bit set): Möller and Granlund, "Improved
    /// division by invariant integers" (IEEE Trans. Computers, 2011), §2.
    static func reciprocal(_ d: UInt64) -> UInt64 {
        precondition(d >> 63 == 1)
        return d.dividingFullWidth((~d, .max)).quotient   // (2^128 − 1 − d·2^64) / d
    }

    /// (high·2^64 + low) / d and the remainder, for a normalised d and high < d, with two
    /// multiplications instead of a division: Möller and Granlund, Algorithm 4.
    @inline(__always)
    static func divide(_ high: UInt64, _ low: UInt64, by d: UInt64, reciprocal: UInt64) -> (quotient: UInt64, remainder: UInt64) {
        var (quotient, fraction) = reciprocal.fullWidthProduct(high)
        let (sum, carry) = fraction.addingReportingOverflow(low)
        fraction = sum
        quotient = quotient &+ high &+ (carry ? 1 : 0) &+ 1
        var remainder = low &- quotient &* d
        if remainder > fraction {
            quotient &-= 1
            remainder &+= d
        }
        if remainder >= d {
            quotient &+= 1
            remainder &-= d
        }
        return (quotient, remainder)
    }

    /// result = x << bits for 0 ≤ bits < 64, `count` limbs; returns the limb shifted out.
    @discardableResult
    private static func shiftLeft(_ result: UnsafeMutablePointer<UInt64>, _ x: UnsafePointer<UInt64>, count: Int, by bits: UInt64) -> UInt64 {
        guard bits > 0 else {
            result.update(from: x, count: count)
            return 0
        }
        var carry: UInt64 = 0
        for i in 0 ..< count {
            let limb = x[i]
            result[i] = limb << bits | carry
            carry = limb >> (64 - bits)
        }
        return carry
    }
}
