/// Helpers for unsigned integers stored as little-endian arrays of 64-bit limbs (limb 0 is the
/// least significant). Fixed-width: callers size every buffer to the modulus.
enum Limbs {
    /// The limbs of a big-endian magnitude, with leading zeros dropped (empty for zero).
    static func minimal(bigEndian bytes: UnsafeRawBufferPointer) -> [UInt64] {
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
        for index in 0..<count {
            if end >= 8 {
                limbs[index] = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self))
                end -= 8
            } else {
                var limb: UInt64 = 0
                for offset in 0..<end { limb = limb << 8 | UInt64(bytes[offset]) }
                limbs[index] = limb
                end = 0
            }
        }
        for offset in 0..<end where bytes[offset] != 0 { return false }
        return true
    }

    /// Stores the value big-endian into all of `bytes`, most significant bytes first; the value
    /// must fit (`precondition`).
    static func store(_ limbs: UnsafePointer<UInt64>, count: Int, bigEndianInto bytes: UnsafeMutableRawBufferPointer) {
        var end = bytes.count
        for index in 0..<count {
            let limb = limbs[index]
            if end >= 8 {
                bytes.storeBytes(of: limb.bigEndian, toByteOffset: end - 8, as: UInt64.self)
                end -= 8
            } else {
                precondition(end == 0 ? limb == 0 : limb >> (8 * UInt64(end)) == 0, "value does not fit")
                for offset in 0..<end { bytes[end - 1 - offset] = UInt8(truncatingIfNeeded: limb >> (8 * UInt64(offset))) }
                end = 0
            }
        }
        for offset in 0..<end { bytes[offset] = 0 }
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
    static func bitCount(_ limbs: [UInt64]) -> Int {
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
    static func subtract(_ result: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>, count: Int) -> UInt64 {
        var borrow: UInt64 = 0
        for index in 0..<count {
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
    static func add(_ result: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>, count: Int) -> UInt64 {
        var carry: UInt64 = 0
        for index in 0..<count {
            let (s1, o1) = a[index].addingReportingOverflow(b[index])
            let (s2, o2) = s1.addingReportingOverflow(carry)
            result[index] = s2
            carry = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
        }
        return carry
    }

    /// One step of schoolbook multiplication: returns the low limb of `a·b + addend + carry` and
    /// leaves the high limb in `carry` (the sum never exceeds 128 bits). Written so that the
    /// compiler emits add/adc pairs.
    @inline(__always)
    static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ addend: UInt64, _ carry: inout UInt64) -> UInt64 {
        var (high, low) = a.multipliedFullWidth(by: b)
        low = low &+ addend
        high = high &+ (low < addend ? 1 : 0)
        low = low &+ carry
        high = high &+ (low < carry ? 1 : 0)
        carry = high
        return low
    }

    /// row[0..<count] = a·b[0..<count]; returns the carry limb (for row[count]).
    @inline(__always)
    static func multiplyStore(_ row: UnsafeMutablePointer<UInt64>, _ a: UInt64, _ b: UnsafePointer<UInt64>, count: Int) -> UInt64 {
        var carry: UInt64 = 0
        for j in 0..<count {
            let (high, low) = a.multipliedFullWidth(by: b[j])
            let sum = low &+ carry
            carry = high &+ (sum < carry ? 1 : 0)
            row[j] = sum
        }
        return carry
    }

    /// row[0..<count] += a·b[0..<count]; returns the carry limb (for row[count]).
    /// The inner loop of every multiplication: pointer-stepped and unrolled by eight.
    @inline(__always)
    static func multiplyAccumulate(_ row: UnsafeMutablePointer<UInt64>, _ a: UInt64, _ b: UnsafePointer<UInt64>, count: Int) -> UInt64 {
        var carry: UInt64 = 0
        var r = row, p = b
        let end = b + count, blocksStart = b + (count & 7)
        while p < blocksStart {
            r[0] = multiplyAdd(a, p[0], r[0], &carry)
            r += 1; p += 1
        }
        while p < end {
            r[0] = multiplyAdd(a, p[0], r[0], &carry)
            r[1] = multiplyAdd(a, p[1], r[1], &carry)
            r[2] = multiplyAdd(a, p[2], r[2], &carry)
            r[3] = multiplyAdd(a, p[3], r[3], &carry)
            r[4] = multiplyAdd(a, p[4], r[4], &carry)
            r[5] = multiplyAdd(a, p[5], r[5], &carry)
            r[6] = multiplyAdd(a, p[6], r[6], &carry)
            r[7] = multiplyAdd(a, p[7], r[7], &carry)
            r += 8; p += 8
        }
        return carry
    }
}
