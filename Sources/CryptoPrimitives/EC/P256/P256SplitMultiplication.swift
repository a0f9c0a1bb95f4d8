/// Steps 6–8 of ECDSA verification (FIPS 186-5 §6.4.2, SEC 1 §4.1.4) for a key that carries
/// its table (`P256KeyTable`): R = u1·G + u2·Q with both scalars' wNAF digits split into eight
/// 32-bit parts, each part adding multiples of its own base (2^(32j)·G, 2^(32j)·Q) from affine
/// tables, so that one chain of 33 doublings serves all sixteen parts (`P256SplitTable`); then
/// x(R) mod n = r checked without inverting Z, as `P256JointMultiplication` does.
enum P256SplitMultiplication {
    /// Whether u1·G + u2·Q is a finite point whose x-coordinate is r modulo n. Allocates nothing
    /// on the heap: the digits live in a temporary stack buffer.
    static func matches(u1: LimbVector, u2: LimbVector, publicKey: P256SplitTable, r: LimbVector) -> Bool {
        let bitCount = 256, length = bitCount + 1
        let generator = P256GeneratorTable.split
        return withUnsafeTemporaryAllocation(of: Int8.self, capacity: 2 * length) { digits in
            let digits1 = UnsafeMutableBufferPointer(rebasing: digits[0 ..< length])
            let digits2 = UnsafeMutableBufferPointer(rebasing: digits[length...])
            let top1 = WNAF.recode(u1, bitCount: bitCount, width: generator.window, into: digits1)
            let top2 = WNAF.recode(u2, bitCount: bitCount, width: publicKey.window, into: digits2)
            let span = P256SplitTable.span, lastChunk = P256SplitTable.chunks - 1
            return generator.points.withUnsafeBufferPointer { generatorMultiples in
                publicKey.points.withUnsafeBufferPointer { keyMultiples in
                    var accumulator = P256JacobianPoint.infinity
                    // Digit i is part i / span at offset i % span; digit 256 is the last part's offset span.
                    var offset = max(top1, top2) >= lastChunk * span + span ? span : span - 1
                    while offset >= 0 {
                        accumulator = accumulator.doubled()
                        for chunk in (offset == span ? lastChunk : 0) ... lastChunk {
                            let index = chunk &* span &+ offset
                            accumulator = adding(
                                Int(digits1[index]), of: generatorMultiples, from: chunk &* generator.perChunk, to: accumulator)
                            accumulator = adding(Int(digits2[index]), of: keyMultiples, from: chunk &* publicKey.perChunk, to: accumulator)
                        }
                        offset -= 1
                    }
                    return !accumulator.isInfinity && P256JointMultiplication.xCoordinate(of: accumulator, reducesTo: r)
                }
            }
        }
    }

    /// accumulator + digit·B for a wNAF digit (zero or odd) and B's odd multiples starting at
    /// `first` in `multiples` (first + i holds (2i + 1)·B).
    @inline(__always)
    static func adding(
        _ digit: Int, of multiples: UnsafeBufferPointer<P256AffinePoint>, from first: Int, to accumulator: P256JacobianPoint
    ) -> P256JacobianPoint {
        if digit > 0 { return accumulator.adding(multiples[first &+ digit >> 1]) }
        if digit < 0 { return accumulator.adding(multiples[first &+ -digit >> 1].negated()) }
        return accumulator
    }
}

/// A P-256 public key's split table (`P256SplitTable`, wNAF window 5: 128 affine points, 8 KiB),
/// built once for a key that verifies many signatures (`ECDSAPublicKey.withVerificationTable()`).
final class P256KeyTable: Sendable {
    /// The window of the key's digits: 16 multiples per base, about 43 additions per verification.
    static let window = 5

    /// The key's eight bases' odd multiples.
    let split: P256SplitTable

    init(publicKey: P256AffinePoint) {
        split = P256SplitTable(base: publicKey, window: Self.window)
    }
}
