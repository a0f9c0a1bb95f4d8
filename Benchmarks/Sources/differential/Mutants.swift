/// The single-bit mutants of one file: for every `stride`-th byte offset (from 0), each bit of
/// `bits` flipped on its own. Mutant `index` is offset number `index / bits.count`, bit number
/// `index % bits.count`.
struct Mutants: Sendable {
    let original: [UInt8]
    let stride: Int
    let bits: [Int]

    var count: Int { (original.count + stride - 1) / stride * bits.count }

    /// The byte offset and bit that mutant `index` flips.
    func flip(_ index: Int) -> (offset: Int, bit: Int) {
        (index / bits.count * stride, bits[index % bits.count])
    }

    /// The mutant's bytes.
    func bytes(_ index: Int) -> [UInt8] {
        var bytes = original
        let (offset, bit) = flip(index)
        bytes[offset] ^= 1 << UInt8(bit)
        return bytes
    }
}
