/// Up to six 64-bit limbs, little-endian (limb 0 least significant), stored inline: an element
/// of the P-256 fields uses the first four (the other two stay zero), of the P-384 fields all six.
/// One fixed-size type for both curves keeps the arithmetic in one generic body, specialised per
/// curve, with no heap allocation anywhere.
struct LimbVector: Sendable, Hashable {
    /// The most limbs a value holds (P-384).
    static let capacity = 6

    var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    static var zero: LimbVector { LimbVector(storage: (0, 0, 0, 0, 0, 0)) }

    /// Limb `index`, which must be below `capacity`. (After unrolling, the index is a constant
    /// and the access folds into a register.)
    @inline(__always)
    subscript(index: Int) -> UInt64 {
        get { Swift.withUnsafeBytes(of: storage) { $0.load(fromByteOffset: index &* 8, as: UInt64.self) } }
        set { Swift.withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: newValue, toByteOffset: index &* 8, as: UInt64.self) } }
    }

    /// The big-endian magnitude `bytes` (any length; leading zeros allowed) in `count` limbs, or
    /// `nil` when it needs more.
    init?(bigEndian bytes: UnsafeRawBufferPointer, count: Int) {
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
    func store(count: Int, bigEndianInto bytes: UnsafeMutableRawBufferPointer) {
        Swift.withUnsafeBytes(of: storage) { raw in
            Limbs.store(raw.baseAddress!.assumingMemoryBound(to: UInt64.self), count: count, bigEndianInto: bytes)
        }
    }

    /// True when every limb is zero.
    var isZero: Bool {
        storage.0 | storage.1 | storage.2 | storage.3 | storage.4 | storage.5 == 0
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

    /// `self + other` over `count` limbs and the carry out (0 or 1).
    @inline(__always)
    func adding(_ other: LimbVector, count: Int) -> (sum: LimbVector, carry: UInt64) {
        var sum = LimbVector.zero
        var carry: UInt64 = 0
        for index in 0..<count {
            let (s1, o1) = self[index].addingReportingOverflow(other[index])
            let (s2, o2) = s1.addingReportingOverflow(carry)
            sum[index] = s2
            carry = (o1 ? 1 : 0) | (o2 ? 1 : 0)
        }
        return (sum, carry)
    }

    /// `self − other` over `count` limbs and the borrow out (0 or 1).
    @inline(__always)
    func subtracting(_ other: LimbVector, count: Int) -> (difference: LimbVector, borrow: UInt64) {
        var difference = LimbVector.zero
        var borrow: UInt64 = 0
        for index in 0..<count {
            let (d1, o1) = self[index].subtractingReportingOverflow(other[index])
            let (d2, o2) = d1.subtractingReportingOverflow(borrow)
            difference[index] = d2
            borrow = (o1 ? 1 : 0) | (o2 ? 1 : 0)
        }
        return (difference, borrow)
    }

    /// `condition ? a : b` limb by limb without a branch (`mask` is all ones or all zeros).
    @inline(__always)
    static func select(_ mask: UInt64, _ a: LimbVector, _ b: LimbVector, count: Int) -> LimbVector {
        var result = LimbVector.zero
        for index in 0..<count { result[index] = (a[index] & mask) | (b[index] & ~mask) }
        return result
    }

    static func == (a: LimbVector, b: LimbVector) -> Bool {
        a.storage.0 == b.storage.0 && a.storage.1 == b.storage.1 && a.storage.2 == b.storage.2
            && a.storage.3 == b.storage.3 && a.storage.4 == b.storage.4 && a.storage.5 == b.storage.5
    }

    func hash(into hasher: inout Hasher) {
        Swift.withUnsafeBytes(of: storage) { hasher.combine(bytes: $0) }
    }
}
