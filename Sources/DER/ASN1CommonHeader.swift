/// The header form nearly every element in a receipt or certificate has, decoded without
/// branches for the rare cases: a low tag number (below 31) and a definite length in the short
/// form or in one or two long-form octets, minimal as DER requires (X.690 §8.1.2.2, §8.1.3, §10.1).
///
/// Shared by `ASN1Reader.readElement`'s fast path and by callers that scan a known structure
/// (receipt attributes); anything else returns `nil` and goes through the general decoder, which
/// accepts every valid form and reports the precise error for invalid ones.
public struct ASN1CommonHeader: Sendable {
    /// The identifier octet (class, constructed bit and tag number).
    public let identifier: UInt8
    /// Input offset of the first content octet.
    public let contentStart: Int
    /// Input offset just past the content.
    public let contentEnd: Int

    /// The header at input offset `start` (`origin` points at offset 0) when it has the common
    /// form and its content ends by `end`; `nil` otherwise.
    @inlinable @inline(__always)
    public static func decode(_ origin: UnsafeRawPointer, at start: Int, end: Int) -> ASN1CommonHeader? {
        guard end &- start >= 2 else { return nil }
        let identifier = origin.load(fromByteOffset: start, as: UInt8.self)
        let first = Int(origin.load(fromByteOffset: start &+ 1, as: UInt8.self))
        var contentStart = start &+ 2
        var length = first
        if first >= 0x80 {
            if first == 0x81, end &- start >= 3 {
                length = Int(origin.load(fromByteOffset: start &+ 2, as: UInt8.self))
                guard length >= 0x80 else { return nil }
                contentStart = start &+ 3
            } else if first == 0x82, end &- start >= 4 {
                length =
                    Int(origin.load(fromByteOffset: start &+ 2, as: UInt8.self)) << 8
                    | Int(origin.load(fromByteOffset: start &+ 3, as: UInt8.self))
                guard length >= 0x100 else { return nil }
                contentStart = start &+ 4
            } else {
                return nil
            }
        }
        guard identifier & 0x1F != 0x1F, length <= end &- contentStart else { return nil }
        return ASN1CommonHeader(identifier: identifier, contentStart: contentStart, contentEnd: contentStart &+ length)
    }

    @inlinable
    init(identifier: UInt8, contentStart: Int, contentEnd: Int) {
        self.identifier = identifier
        self.contentStart = contentStart
        self.contentEnd = contentEnd
    }
}

/// INTEGER content (X.690 §8.3) as `Int64`: `nil` unless it is 1–8 octets and minimal (the first
/// nine bits neither all zeros nor all ones). Shared by `ASN1Element.int64Value` and scanners.
@inlinable @inline(__always)
public func asn1Int64(content bytes: UnsafeRawBufferPointer) -> Int64? {
    let count = bytes.count
    guard count >= 1, count <= 8 else { return nil }
    let first = bytes[0]
    if count > 1 {
        let second = bytes[1]
        if (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) { return nil }
    }
    var value = Int64(Int8(bitPattern: first))
    var i = 1
    while i < count {
        value = value << 8 | Int64(bytes[i])
        i += 1
    }
    return value
}
