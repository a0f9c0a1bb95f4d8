/// Up to six 64-bit limbs, little-endian (limb 0 least significant), stored inline: an element
/// of the P-256 fields uses the first four (the other two stay zero), of the P-384 fields all six.
/// One fixed-size type for both curves keeps the arithmetic in one generic body, specialised per
/// curve, with no heap allocation anywhere.
package struct LimbVector: Sendable, Hashable {
    /// The most limbs a value holds (P-384).
    static let capacity = 6

    var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    package static var zero: LimbVector { LimbVector(storage: (0, 0, 0, 0, 0, 0)) }

    /// Limb `index`, which must be below `capacity`. (After unrolling, the index is a constant
    /// and the access folds into a register.)
    @inline(__always)
    subscript(index: Int) -> UInt64 {
        get { Swift.withUnsafeBytes(of: storage) { $0.load(fromByteOffset: index &* 8, as: UInt64.self) } }
        set { Swift.withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: newValue, toByteOffset: index &* 8, as: UInt64.self) } }
    }

    /// The big-endian magnitude `bytes` (any length; leading zeros allowed) in `count` limbs, or
    /// `nil` when it needs more.
    package init?(bigEndian bytes: UnsafeRawBufferPointer, count: Int) {
        precondition(count <= Self.capacity)
        var value = LimbVector.zero
        let fits = Swift.withUnsafeMutableBytes(of: &value.storage) { raw in
            Limbs.load(bigEndian: bytes, into: raw.baseAddress!.assumingMemoryBound(to: UInt64.self), count: count)
        }
        guard fits else { return nil }
        self = value
    }

    init(storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) {
        self.storage = storage
    }

    /// The low `count` limbs, big-endian, into all of `bytes` (the value must fit).
    package func store(count: Int, bigEndianInto bytes: UnsafeMutableRawBufferPointer) {
        Swift.withUnsafeBytes(of: storage) { raw in
            Limbs.store(raw.baseAddress!.assumingMemoryBound(to: UInt64.self), count: count, bigEndianInto: bytes)
        }
    }

    /// True when every limb is zero.
    package var isZero: Bool {
        storage.0 | storage.1 | storage.2 | storage.3 | storage.4 | storage.5 == 0
    }

    /// True when the value is 1.
    var isOne: Bool {
        storage.0 == 1 && storage.1 | storage.2 | storage.3 | storage.4 | storage.5 == 0
    }

    /// The low `count` (4 or 6) limbs shifted right by one bit, with `topBit` (0 or 1) shifted
    /// in at bit 64·count − 1.
    @inline(__always)
    func shiftedRight(insertingTopBit topBit: UInt64, count: Int) -> LimbVector {
        let s = storage
        if count > 4 {
            return LimbVector(
                storage: (
                    s.0 >> 1 | s.1 << 63, s.1 >> 1 | s.2 << 63, s.2 >> 1 | s.3 << 63,
                    s.3 >> 1 | s.4 << 63, s.4 >> 1 | s.5 << 63, s.5 >> 1 | topBit << 63
                ))
        }
        return LimbVector(
            storage: (
                s.0 >> 1 | s.1 << 63, s.1 >> 1 | s.2 << 63, s.2 >> 1 | s.3 << 63,
                s.3 >> 1 | topBit << 63, 0, 0
            ))
    }

    /// −1, 0 or 1 as `self` is below, equal to or above `other`, over the low `count` limbs.
    @inline(__always)
    func compare(_ other: LimbVector, count: Int) -> Int {
        var index = count
        while index > 0 {
            index &-= 1
            let a = self[index], b = other[index]
            if a != b { return a < b ? -1 : 1 }
        }
        return 0
    }

    // The hot operations name each limb (`storage.0` …) instead of looping over an index: the
    // limb count is a constant after specialisation, the `count > 4` tests fold away, and the
    // limbs stay in registers (a loop through a pointer or a subscript kept them in memory).

    /// `self + other` over `count` (4 or 6) limbs and the carry out (0 or 1).
    @inline(__always)
    func adding(_ other: LimbVector, count: Int) -> (sum: LimbVector, carry: UInt64) {
        var sum = storage, carry: UInt64 = 0
        Self.addWithCarry(&sum.0, other.storage.0, &carry)
        Self.addWithCarry(&sum.1, other.storage.1, &carry)
        Self.addWithCarry(&sum.2, other.storage.2, &carry)
        Self.addWithCarry(&sum.3, other.storage.3, &carry)
        if count > 4 {
            Self.addWithCarry(&sum.4, other.storage.4, &carry)
            Self.addWithCarry(&sum.5, other.storage.5, &carry)
        }
        return (LimbVector(storage: sum), carry)
    }

    /// `self − other` over `count` (4 or 6) limbs and the borrow out (0 or 1).
    @inline(__always)
    package func subtracting(_ other: LimbVector, count: Int) -> (difference: LimbVector, borrow: UInt64) {
        var difference = storage, borrow: UInt64 = 0
        Self.subtractWithBorrow(&difference.0, other.storage.0, &borrow)
        Self.subtractWithBorrow(&difference.1, other.storage.1, &borrow)
        Self.subtractWithBorrow(&difference.2, other.storage.2, &borrow)
        Self.subtractWithBorrow(&difference.3, other.storage.3, &borrow)
        if count > 4 {
            Self.subtractWithBorrow(&difference.4, other.storage.4, &borrow)
            Self.subtractWithBorrow(&difference.5, other.storage.5, &borrow)
        }
        return (LimbVector(storage: difference), borrow)
    }

    /// `mask == all ones ? a : b` limb by limb without a branch (`mask` is all ones or all
    /// zeros); limbs past `count` (4 or 6) are zero.
    @inline(__always)
    static func select(_ mask: UInt64, _ a: LimbVector, _ b: LimbVector, count: Int) -> LimbVector {
        let x = a.storage, y = b.storage
        @inline(__always) func pick(_ u: UInt64, _ v: UInt64) -> UInt64 { (u & mask) | (v & ~mask) }
        return LimbVector(
            storage: (
                pick(x.0, y.0), pick(x.1, y.1), pick(x.2, y.2), pick(x.3, y.3),
                count > 4 ? pick(x.4, y.4) : 0, count > 4 ? pick(x.5, y.5) : 0
            ))
    }

    /// limb += addend + carry; carry = the carry out (0 or 1). Compiles to `adc` in a chain
    /// (`UInt64.addingWithCarry`).
    @inline(__always)
    static func addWithCarry(_ limb: inout UInt64, _ addend: UInt64, _ carry: inout UInt64) {
        limb = limb.addingWithCarry(addend, &carry)
    }

    /// limb −= subtrahend + borrow; borrow = the borrow out (0 or 1). Compiles to `sbb`.
    @inline(__always)
    static func subtractWithBorrow(_ limb: inout UInt64, _ subtrahend: UInt64, _ borrow: inout UInt64) {
        let d1 = limb &- subtrahend
        let d2 = d1 &- borrow
        borrow = (limb < subtrahend ? 1 : 0) | (d1 < borrow ? 1 : 0)
        limb = d2
    }

    package static func == (a: LimbVector, b: LimbVector) -> Bool {
        a.storage.0 == b.storage.0 && a.storage.1 == b.storage.1 && a.storage.2 == b.storage.2
            && a.storage.3 == b.storage.3 && a.storage.4 == b.storage.4 && a.storage.5 == b.storage.5
    }

    package func hash(into hasher: inout Hasher) {
        Swift.withUnsafeBytes(of: storage) { hasher.combine(bytes: $0) }
    }
}
