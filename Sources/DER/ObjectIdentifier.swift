/// An OBJECT IDENTIFIER held as its DER content octets (X.690 §8.19), compared byte for byte.
///
/// Constants are written in dotted form (`ASN1ObjectIdentifier("1.2.840.113549.1.7.2")`) and
/// encoded once; comparing with an element's content is a length check and a byte compare.
public struct ASN1ObjectIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The content octets (no tag or length).
    public let encodedContent: [UInt8]

    /// Makes an identifier from already validated content octets.
    @inlinable
    public init(validatedContent: [UInt8]) { encodedContent = validatedContent }

    /// Encodes a dotted identifier such as `2.5.29.19`. Traps on malformed text: for constants.
    public init(_ dotted: String) {
        guard let oid = ASN1ObjectIdentifier(dotted: dotted) else { preconditionFailure("bad OID \(dotted)") }
        self = oid
    }

    /// Encodes a dotted identifier; `nil` unless it has at least two arcs, the first 0–2 and the
    /// second below 40 when the first is 0 or 1 (X.660). Arcs are limited to 64 bits here.
    public init?(dotted: String) {
        var arcs: [UInt64] = []
        for part in dotted.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && $0.isNumber }), let arc = UInt64(part) else { return nil }
            arcs.append(arc)
        }
        guard arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40 else { return nil }
        guard arcs[1] <= UInt64.max - 80 else { return nil }
        var out: [UInt8] = []
        // The first two arcs share one sub-identifier, 40·X + Y (X.690 §8.19.4).
        ASN1ObjectIdentifier.appendBase128(arcs[0] * 40 + arcs[1], to: &out)
        for arc in arcs.dropFirst(2) { ASN1ObjectIdentifier.appendBase128(arc, to: &out) }
        encodedContent = out
    }

    static func appendBase128(_ value: UInt64, to out: inout [UInt8]) {
        var shift = 63
        while shift > 0 && value >> UInt64(shift) == 0 { shift -= 7 }
        while shift > 0 {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)) & 0x7F | 0x80)
            shift -= 7
        }
        out.append(UInt8(value & 0x7F))
    }

    /// True when `content` (an OBJECT IDENTIFIER's content octets) is this identifier.
    @inlinable
    public func matches(_ content: UnsafeRawBufferPointer) -> Bool {
        guard content.count == encodedContent.count else { return false }
        return encodedContent.withUnsafeBytes { mine in
            for i in 0 ..< mine.count where mine[i] != content[i] { return false }
            return true
        }
    }

    /// Dotted text, e.g. `1.2.840.113635.100.6.11.1`.
    public var description: String { ASN1ObjectIdentifier.dottedString(encodedContent) }

    /// Dotted text for validated content octets; arcs of any size.
    public static func dottedString<C: Collection>(_ content: C) -> String where C.Element == UInt8 {
        var parts: [String] = []
        var digits: [UInt8] = []   // current sub-identifier in base 128
        for byte in content {
            digits.append(byte & 0x7F)
            guard byte & 0x80 == 0 else { continue }
            if parts.isEmpty {
                // Split the first sub-identifier into X and Y (X.690 §8.19.4).
                let (x, y) = firstTwoArcs(digits)
                parts.append(x)
                parts.append(y)
            } else {
                parts.append(decimal(base128: digits))
            }
            digits.removeAll(keepingCapacity: true)
        }
        return parts.joined(separator: ".")
    }

    private static func firstTwoArcs(_ digits: [UInt8]) -> (String, String) {
        var limbs = decimalLimbs(base128: digits)
        if limbs.count == 1 && limbs[0] < 80 { return (String(limbs[0] / 40), String(limbs[0] % 40)) }
        // X is 2 and Y = value - 80; subtract in base 10^9 with borrow.
        var borrow: UInt32 = 80
        for i in limbs.indices where borrow > 0 {
            if limbs[i] >= borrow { limbs[i] -= borrow; borrow = 0 } else { limbs[i] = limbs[i] + 1_000_000_000 - borrow; borrow = 1 }
        }
        return ("2", text(limbs))
    }

    private static func decimal(base128 digits: [UInt8]) -> String { text(decimalLimbs(base128: digits)) }

    /// A base-128 number (most significant digit first, any length) in base 10^9 limbs, least
    /// significant first.
    private static func decimalLimbs(base128 digits: [UInt8]) -> [UInt32] {
        var limbs: [UInt32] = [0]
        for digit in digits {
            var carry = UInt64(digit)
            for i in limbs.indices {
                let v = UInt64(limbs[i]) * 128 + carry
                limbs[i] = UInt32(v % 1_000_000_000)
                carry = v / 1_000_000_000
            }
            if carry > 0 { limbs.append(UInt32(carry)) }
        }
        return limbs
    }

    private static func text(_ limbs: [UInt32]) -> String {
        var significant = limbs
        while significant.count > 1 && significant.last == 0 { significant.removeLast() }
        var text = String(significant.last!)
        for limb in significant.dropLast().reversed() {
            let part = String(limb)
            text += String(repeating: "0", count: 9 - part.count) + part
        }
        return text
    }
}

extension ASN1Element {
    /// OBJECT IDENTIFIER content, validated: non-empty, the last octet ends a sub-identifier, and
    /// no sub-identifier starts with 0x80 (X.690 §8.19.2). Borrowed from the input.
    @inlinable
    public func objectIdentifierBytes() throws(ASN1Error) -> UnsafeRawBufferPointer {
        let bytes = content
        guard !tag.isConstructed, let last = bytes.last, last & 0x80 == 0 else {
            throw error(.invalidObjectIdentifier)
        }
        var startsSubidentifier = true
        for byte in bytes {
            if startsSubidentifier && byte == 0x80 { throw error(.invalidObjectIdentifier) }
            startsSubidentifier = byte & 0x80 == 0
        }
        return bytes
    }

    /// The OBJECT IDENTIFIER as an owned value (allocates; prefer `objectIdentifierBytes` and
    /// `ASN1ObjectIdentifier.matches` on hot paths).
    public func objectIdentifierValue() throws(ASN1Error) -> ASN1ObjectIdentifier {
        ASN1ObjectIdentifier(validatedContent: Array(try objectIdentifierBytes()))
    }
}

extension ASN1Reader {
    /// Reads an OBJECT IDENTIFIER's validated content octets.
    @inlinable
    public mutating func readObjectIdentifierBytes() throws(ASN1Error) -> UnsafeRawBufferPointer {
        try read(.objectIdentifier).objectIdentifierBytes()
    }

    /// Reads an OBJECT IDENTIFIER and requires it to be `expected`.
    @inlinable
    public mutating func readObjectIdentifier(_ expected: ASN1ObjectIdentifier) throws(ASN1Error) {
        let element = try read(.objectIdentifier)
        guard expected.matches(try element.objectIdentifierBytes()) else {
            throw element.error(.unexpectedObjectIdentifier)
        }
    }
}
