/// An ECDSA public key on P-256 or P-384 that verifies signatures (FIPS 186-5 §6.4.2, SEC 1
/// §4.1.4). The point is validated when the key is made (SEC 1 §3.2.2.1) and kept in the form
/// verification uses, so a key made once verifies with no further checks and no allocation.
///
/// A P-256 key that verifies many signatures can carry a table of its point's multiples
/// (`withVerificationTable()`), which makes each verification about twice as fast. Two keys
/// are equal when their curves and points are, with or without a table.
public struct ECDSAPublicKey: Sendable, Hashable {
    /// The curve of the key.
    public let curve: EllipticCurve
    /// x and y in Montgomery form modulo p.
    let x: LimbVector
    let y: LimbVector
    /// The P-256 point's split table, when `withVerificationTable()` built it.
    let table: P256KeyTable?

    /// A key from the SEC 1 §2.3.3 uncompressed point 0x04 ‖ X ‖ Y (X and Y big-endian,
    /// `curve.byteCount` bytes each), validated as SEC 1 §3.2.2.1 says: coordinates below p,
    /// on the curve, not the point at infinity. (Step 4, n·Q = O, holds for every point of
    /// these curves: their order is prime and the cofactor 1.)
    public init(curve: EllipticCurve, x963Representation bytes: UnsafeRawBufferPointer) throws(ECKeyError) {
        self.curve = curve
        table = nil
        switch curve {
        case .p256: (x, y) = try Self.decode(bytes, on: P256.self)
        case .p384: (x, y) = try Self.decode(bytes, on: P384.self)
        }
    }

    /// A key from the uncompressed point held in an array; see the buffer initializer.
    public init(curve: EllipticCurve, x963Representation bytes: [UInt8]) throws(ECKeyError) {
        let key = bytes.withUnsafeBytes { raw in
            Result { () throws(ECKeyError) in try ECDSAPublicKey(curve: curve, x963Representation: raw) }
        }
        self = try key.get()
    }

    init(curve: EllipticCurve, x: LimbVector, y: LimbVector, table: P256KeyTable? = nil) {
        self.curve = curve
        self.x = x
        self.y = y
        self.table = table
    }

    /// This key with a table of its point's multiples, for a key that verifies many signatures
    /// (an API key, a signing certificate's key kept in a cache). On P-256 the table holds 128
    /// affine points (8 KiB), takes about one and a half verifications' time to build, and then
    /// cuts each verification's point multiplication from 256 doublings to 33
    /// (`P256SplitMultiplication`);
    /// verification answers exactly as without it. A P-384 key, or one that has its table
    /// already, is returned as it is.
    public func withVerificationTable() -> ECDSAPublicKey {
        guard curve == .p256, table == nil else { return self }
        let point = P256AffinePoint(x: P256FieldElement(montgomery: x), y: P256FieldElement(montgomery: y))
        return ECDSAPublicKey(curve: curve, x: x, y: y, table: P256KeyTable(publicKey: point))
    }

    /// Whether this key carries the table `withVerificationTable()` builds.
    public var hasVerificationTable: Bool { table != nil }

    /// Whether both keys are the same point on the same curve (a verification table, had by one
    /// or both, does not count).
    public static func == (a: ECDSAPublicKey, b: ECDSAPublicKey) -> Bool {
        a.curve == b.curve && a.x == b.x && a.y == b.y
    }

    /// Hashes the curve and the point, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(curve)
        hasher.combine(x)
        hasher.combine(y)
    }

    /// The uncompressed point 0x04 ‖ X ‖ Y (SEC 1 §2.3.3), 1 + 2 × `curve.byteCount` bytes.
    public var x963Representation: [UInt8] {
        switch curve {
        case .p256: encoded(on: P256.self)
        case .p384: encoded(on: P384.self)
        }
    }

    /// Verifies a signature given as r and s, big-endian unsigned magnitudes of any length
    /// (leading zero bytes allowed). False unless both lie in [1, n − 1] and the signature
    /// verifies over `digest` (FIPS 186-5 §6.4.2, SEC 1 §4.1.4). The digest may have any
    /// length: it is truncated to the order's bit length (P-256 with SHA-384 works). High-S
    /// signatures are valid: ECDSA does not require low S, nor do JWS and Apple.
    public func isValidSignature(r: UnsafeRawBufferPointer, s: UnsafeRawBufferPointer, digest: Digest) -> Bool {
        switch curve {
        case .p256:
            if let table {
                guard let (u1, u2, r) = ECDSAVerification<P256>.scalars(r: r, s: s, digest: digest) else { return false }
                return P256SplitMultiplication.matches(u1: u1, u2: u2, publicKey: table.split, r: r)
            }
            return ECDSAVerification<P256>.isValid(r: r, s: s, digest: digest, publicKey: point(on: P256.self))
        case .p384: return ECDSAVerification<P384>.isValid(r: r, s: s, digest: digest, publicKey: point(on: P384.self))
        }
    }

    /// Verifies an IEEE P1363 signature r ‖ s, exactly 2 × `curve.byteCount` bytes (what JWS
    /// carries, RFC 7518 §3.4); any other length is refused.
    public func isValidSignature(rawRepresentation signature: UnsafeRawBufferPointer, digest: Digest) -> Bool {
        let half = curve.byteCount
        guard signature.count == 2 * half else { return false }
        return isValidSignature(
            r: UnsafeRawBufferPointer(rebasing: signature[0 ..< half]),
            s: UnsafeRawBufferPointer(rebasing: signature[half...]), digest: digest)
    }

    /// Verifies an IEEE P1363 signature held in an array; see the buffer overload.
    public func isValidSignature(rawRepresentation signature: [UInt8], digest: Digest) -> Bool {
        signature.withUnsafeBytes { isValidSignature(rawRepresentation: $0, digest: digest) }
    }

    /// The point for verification on `Curve` (which must be the key's curve).
    @inline(__always)
    func point<Curve: WeierstrassCurve>(on _: Curve.Type) -> AffinePoint<Curve> {
        AffinePoint(x: MontgomeryResidue(montgomery: x), y: MontgomeryResidue(montgomery: y))
    }

    /// SEC 1 §2.3.4 (uncompressed only) and §3.2.2.1; returns x and y in Montgomery form.
    static func decode<Curve: WeierstrassCurve>(_ bytes: UnsafeRawBufferPointer, on _: Curve.Type) throws(ECKeyError) -> (LimbVector, LimbVector) {
        switch bytes.first {
        case 0x04: break
        case 0x00: throw .pointAtInfinity
        case 0x02, 0x03: throw .compressedPoint
        case let first?: throw .notUncompressed(firstByte: first)
        case nil: throw .wrongLength(expected: 1 + 2 * Curve.byteCount, actual: 0)
        }
        let size = Curve.byteCount
        guard bytes.count == 1 + 2 * size else { throw .wrongLength(expected: 1 + 2 * size, actual: bytes.count) }
        let count = Curve.Field.limbCount
        let x = LimbVector(bigEndian: UnsafeRawBufferPointer(rebasing: bytes[1 ... size]), count: count)!
        let y = LimbVector(bigEndian: UnsafeRawBufferPointer(rebasing: bytes[(1 + size)...]), count: count)!
        guard x.compare(Curve.Field.modulus, count: count) < 0, y.compare(Curve.Field.modulus, count: count) < 0 else {
            throw .coordinateNotBelowPrime
        }
        let point = AffinePoint<Curve>(x: MontgomeryResidue(x), y: MontgomeryResidue(y))
        guard point.isOnCurve else { throw .notOnCurve }
        return (point.x.montgomery, point.y.montgomery)
    }

    private func encoded<Curve: WeierstrassCurve>(on _: Curve.Type) -> [UInt8] {
        let size = Curve.byteCount, count = Curve.Field.limbCount
        let point = point(on: Curve.self)
        return [UInt8](unsafeUninitializedCapacity: 1 + 2 * size) { bytes, initialized in
            let raw = UnsafeMutableRawBufferPointer(bytes)
            raw[0] = 0x04
            point.x.value.store(count: count, bigEndianInto: UnsafeMutableRawBufferPointer(rebasing: raw[1 ... size]))
            point.y.value.store(count: count, bigEndianInto: UnsafeMutableRawBufferPointer(rebasing: raw[(1 + size)...]))
            initialized = 1 + 2 * size
        }
    }
}
