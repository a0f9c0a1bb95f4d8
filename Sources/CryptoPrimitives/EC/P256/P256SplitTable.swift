/// Odd multiples of a point P's eight "split bases" P, 2^32·P, …, 2^224·P, affine: with them,
/// k·P = Σ_j k_j·(2^(32j)·P) for k's eight 32-bit parts needs 32 doublings instead of 256
/// (Hankerson, Menezes, Vanstone, "Guide to Elliptic Curve Cryptography" §3.3.2, fixed-base
/// methods, with each part's digits in wNAF as in Alg. 3.51). Eight parts of 32 bits rather than
/// four of 64: measured with callgrind, a verification costs 310 k instructions instead of 375 k
/// (33 doublings instead of 65; the additions are as many), for tables twice the size and a key's
/// built in 1.17 M instructions instead of 0.76 M.
///
/// `points[chunk · perChunk + i]` = (2i + 1)·2^(32·chunk)·P, for i below `perChunk` = 2^(w−1).
struct P256SplitTable: Sendable {
    /// The bit offset between consecutive bases.
    static let span = 32
    /// Eight bases cover a 256-bit scalar (its wNAF's digit 256 goes to the last one, at offset 32).
    static let chunks = 8

    /// The wNAF window: digits odd and below 2^window in magnitude.
    let window: Int
    /// Odd multiples per base: 2^(window − 1).
    let perChunk: Int
    /// `chunks` × `perChunk` affine points, base by base.
    let points: [P256AffinePoint]

    /// The table of `base` (finite, on the curve) for wNAF digits of `window`: 7 × 32 doublings
    /// for the bases, 2^(w−1) additions for each base's odd multiples, one inversion for all.
    init(base: P256AffinePoint, window: Int) {
        precondition(window >= 2 && window <= 7)
        self.window = window
        perChunk = 1 << (window - 1)
        var chunkBase = P256JacobianPoint(base)
        var multiples: [P256JacobianPoint] = []
        multiples.reserveCapacity(Self.chunks * perChunk)
        for chunk in 0 ..< Self.chunks {
            if chunk > 0 {
                for _ in 0 ..< Self.span { chunkBase = chunkBase.doubled() }
            }
            multiples += P256GeneratorTable.oddMultiples(of: chunkBase, count: perChunk)
        }
        points = P256AffineBatch.affine(multiples)
    }
}
