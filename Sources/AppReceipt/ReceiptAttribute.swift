import DER

/// One raw `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`,
/// kept for every attribute, known or not. `valueRange` indexes `AppReceipt.payload`.
///
/// Twenty bytes each, so a receipt with many purchases keeps its raw attributes compactly: type
/// and version fit in 32 bits (receipts use small numbers; larger ones are rejected as
/// malformed), offsets in 32 bits (inputs are at most `ReceiptLimits.maxInputSize`).
public struct ReceiptAttribute: Sendable, Hashable {
    private let storedType: Int32
    private let storedVersion: Int32
    private let valueStart: UInt32
    private let valueCount: UInt32
    private let storedOffset: UInt32

    /// The attribute's type number (2 bundle identifier, 17 in-app purchase, …).
    public var type: Int { Int(storedType) }
    /// The attribute's version field, as written.
    public var version: Int { Int(storedVersion) }
    /// The value's octets (the DER of the attribute's own type) within `AppReceipt.payload`.
    public var valueRange: Range<Int> { Int(valueStart) ..< Int(valueStart) + Int(valueCount) }
    /// Offset of the attribute's SEQUENCE in `AppReceipt.payload` (an index of it).
    public var offset: Int { Int(storedOffset) }

    /// `type` and `version` must fit in 32 bits and the offsets in 32 bits unsigned (the readers
    /// check the first; `ReceiptLimits.maxInputSize` guarantees the second).
    init(type: Int32, version: Int32, valueRange: Range<Int>, offset: Int) {
        storedType = type
        storedVersion = version
        valueStart = UInt32(truncatingIfNeeded: valueRange.lowerBound)
        valueCount = UInt32(truncatingIfNeeded: valueRange.count)
        storedOffset = UInt32(truncatingIfNeeded: offset)
    }
}

/// Reads a payload SET OF ReceiptAttribute (BER: Xcode writes these SETs unsorted).
///
/// Each attribute is first tried in the form every real receipt uses, `30 L 02 L t 02 L v 04 L …`
/// with common-form headers and minimal INTEGERs, scanned without building elements; anything
/// else (long lengths, indefinite lengths, malformed input) goes through `ASN1Reader`, which
/// accepts every BER form and reports the precise error. Both paths accept exactly the same
/// attributes in the common form.
struct AttributeReader {
    /// Offset 0 of the payload storage; positions are input offsets.
    private let origin: UnsafeRawPointer?
    private var position: Int
    private let end: Int
    private let limit: Int
    private var count = 0

    /// A reader over the SET encoded in `bytes[range]` (which it must fill exactly), reading at
    /// most `limit` attributes. `bytes` is the whole payload storage, so offsets are indexes into it.
    init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, limit: Int = ReceiptLimits.maxAttributesPerSet) throws(ReceiptError) {
        self.limit = limit
        origin = bytes.baseAddress
        // The common form (`31 L`, `31 81 L`, `31 82 L L`) read in place; anything else by ASN1Reader.
        if let origin = bytes.baseAddress, let set = ASN1CommonHeader.decode(origin, at: range.lowerBound, end: range.upperBound),
            set.identifier == 0x31, set.contentEnd == range.upperBound
        {
            position = set.contentStart
            end = set.contentEnd
            return
        }
        do throws(ASN1Error) {
            var outer = ASN1Reader(UnsafeRawBufferPointer(rebasing: bytes[range]), rules: .ber, baseOffset: range.lowerBound)
            let set = try outer.read(.set)
            try outer.finish()
            position = set.contentOffset
            end = set.contentOffset + set.contentLength
        } catch {
            throw .payload(error)
        }
    }

    /// The next attribute, or `nil` after the last.
    @inline(__always)
    mutating func next() throws(ReceiptError) -> ReceiptAttribute? {
        guard position < end, let origin else { return nil }
        guard count < limit else { throw .tooManyElements(offset: position) }
        count += 1
        if let (attribute, next) = scanShortForm(origin) ?? scanCommonForm(origin) {
            position = next
            return attribute
        }
        return try readInGeneral(origin)
    }

    /// Nearly every attribute is `30 L 02 01|02 t… 02 01 v 04 VL …` with short-form lengths: matched
    /// eight octets at a time. Accepts exactly what `scanCommonForm` accepts in that shape (short
    /// lengths are minimal; the type must be a minimal positive INTEGER of one or two octets).
    @inline(__always)
    private func scanShortForm(_ origin: UnsafeRawPointer) -> (ReceiptAttribute, Int)? {
        guard end - position >= 11 else { return nil }
        @inline(__always) func octet(_ i: Int) -> Int { Int(origin.load(fromByteOffset: position + i, as: UInt8.self)) }
        let word = UInt64(littleEndian: origin.loadUnaligned(fromByteOffset: position, as: UInt64.self))
        let length = octet(1)
        guard length < 0x80, length <= end - position - 2 else { return nil }
        let type: Int32, version: Int32, valueStart: Int
        if word & 0xFFFF_0000_FFFF_00FF == 0x0102_0000_0202_0030 {
            // 30 L 02 02 t1 t2 02 01 | v 04 VL: a two-octet type, minimal and positive.
            let high = octet(4), low = octet(5)
            guard high < 0x80, high != 0 || low >= 0x80 else { return nil }
            type = Int32(high << 8 | low)
            version = Int32(Int8(truncatingIfNeeded: octet(8)))
            valueStart = 9
        } else if word & 0x00FF_FF00_FFFF_00FF == 0x0001_0200_0102_0030 {
            // 30 L 02 01 t 02 01 v | 04 VL: a one-octet type, positive.
            guard octet(4) < 0x80 else { return nil }
            type = Int32(octet(4))
            version = Int32(Int8(truncatingIfNeeded: octet(7)))
            valueStart = 8
        } else {
            return nil
        }
        let valueLength = octet(valueStart + 1)
        guard octet(valueStart) == 0x04, valueLength < 0x80, valueStart + 2 + valueLength == 2 + length else { return nil }
        let value = position + valueStart + 2
        return (
            ReceiptAttribute(type: type, version: version, valueRange: value ..< value + valueLength, offset: position),
            position + 2 + length
        )
    }

    /// The attribute at `position` when it has the common form, and where the next one starts.
    private func scanCommonForm(_ origin: UnsafeRawPointer) -> (ReceiptAttribute, Int)? {
        guard let sequence = ASN1CommonHeader.decode(origin, at: position, end: end), sequence.identifier == 0x30 else {
            return nil
        }
        var index = sequence.contentStart
        let limit = sequence.contentEnd
        guard let type = Self.shortInteger(origin, &index, limit), let version = Self.shortInteger(origin, &index, limit),
            let value = ASN1CommonHeader.decode(origin, at: index, end: limit),
            value.identifier == 0x04, value.contentEnd == limit
        else { return nil }
        let attribute = ReceiptAttribute(
            type: type, version: version, valueRange: value.contentStart ..< value.contentEnd,
            offset: position)
        return (attribute, limit)
    }

    /// A minimal INTEGER of 1–8 octets with a short-form length at `index` (advanced past it)
    /// that fits in 32 bits.
    @inline(__always)
    private static func shortInteger(_ origin: UnsafeRawPointer, _ index: inout Int, _ limit: Int) -> Int32? {
        guard limit - index >= 3, origin.load(fromByteOffset: index, as: UInt8.self) == 0x02 else { return nil }
        let count = Int(origin.load(fromByteOffset: index + 1, as: UInt8.self))
        guard count <= limit - index - 2,
            let value = asn1Int64(content: UnsafeRawBufferPointer(start: origin + index + 2, count: count)),
            let result = Int32(exactly: value)
        else { return nil }
        index += 2 + count
        return result
    }

    /// Any BER form, or the precise error.
    private mutating func readInGeneral(_ origin: UnsafeRawPointer) throws(ReceiptError) -> ReceiptAttribute {
        do throws(ASN1Error) {
            var reader = ASN1Reader(
                UnsafeRawBufferPointer(start: origin + position, count: end - position), rules: .ber,
                baseOffset: position)
            let sequence = try reader.read(.sequence)
            var fields = try sequence.children()
            let type = try fields.read(.integer)
            let typeValue = try type.int64Value()
            let versionElement = try fields.read(.integer)
            let version = try versionElement.int64Value()
            let value = try fields.read(.octetString)
            try fields.finish()
            // The value is one primitive OCTET STRING (its content is itself an encoding).
            guard !value.tag.isConstructed else { throw value.error(.unsupportedConstructedEncoding) }
            guard let typeInt = Int32(exactly: typeValue) else { throw type.error(.integerOverflow) }
            guard let versionInt = Int32(exactly: version) else { throw versionElement.error(.integerOverflow) }
            position = reader.offset
            return ReceiptAttribute(type: typeInt, version: versionInt, valueRange: value.contentRange, offset: sequence.offset)
        } catch {
            throw .payload(error)
        }
    }
}

/// Where a receipt's in-app attributes are written while decoding: slots allocated once for the
/// most attributes the payload can hold (each takes at least ten encoded octets, `30 08 02 01 t
/// 02 01 v 04 00`), so appending needs no capacity or uniqueness checks.
struct AttributeSink {
    private let slots: UnsafeMutableBufferPointer<ReceiptAttribute>
    private(set) var count = 0

    init(_ slots: UnsafeMutableBufferPointer<ReceiptAttribute>) { self.slots = slots }

    /// Slots for the attributes encoded in `payload`.
    static func capacity(for payload: Range<Int>) -> Int { payload.count / 10 + 1 }

    @inline(__always)
    mutating func append(_ attribute: ReceiptAttribute) throws(ReceiptError) {
        // Cannot fill up (see `capacity(for:)`); checked anyway rather than trusted.
        guard count < slots.count else { throw .tooManyElements(offset: attribute.offset) }
        (slots.baseAddress! + count).initialize(to: attribute)
        count += 1
    }
}
