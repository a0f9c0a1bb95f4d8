import DER
import Foundation

/// One raw `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`,
/// kept for every attribute, known or not. `valueRange` indexes `AppReceipt.payload`.
public struct ReceiptAttribute: Sendable, Hashable {
    public let type: Int
    public let version: Int
    /// The value's octets (the DER of the attribute's own type) within `AppReceipt.payload`.
    public let valueRange: Range<Int>
    /// Offset of the attribute's SEQUENCE in `AppReceipt.payload`.
    public let offset: Int
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
    private var count = 0

    /// A reader over the SET encoded in `bytes[range]` (which it must fill exactly). `bytes` is
    /// the whole payload storage, so offsets are indexes into it.
    init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) throws(ReceiptError) {
        do throws(ASN1Error) {
            var outer = ASN1Reader(UnsafeRawBufferPointer(rebasing: bytes[range]), rules: .ber, baseOffset: range.lowerBound)
            let set = try outer.read(.set)
            try outer.finish()
            position = set.contentOffset
            end = set.contentOffset + set.contentLength
        } catch {
            throw .payload(error)
        }
        origin = bytes.baseAddress
    }

    /// The next attribute, or `nil` after the last.
    mutating func next() throws(ReceiptError) -> ReceiptAttribute? {
        guard position < end, let origin else { return nil }
        guard count < ReceiptLimits.maxAttributesPerSet else { throw .tooManyElements(offset: position) }
        count += 1
        if let (attribute, next) = scanCommonForm(origin) {
            position = next
            return attribute
        }
        return try readInGeneral(origin)
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
        let attribute = ReceiptAttribute(type: type, version: version, valueRange: value.contentStart ..< value.contentEnd,
                                         offset: position)
        return (attribute, limit)
    }

    /// A minimal INTEGER of 1–8 octets with a short-form length at `index` (advanced past it).
    @inline(__always)
    private static func shortInteger(_ origin: UnsafeRawPointer, _ index: inout Int, _ limit: Int) -> Int? {
        guard limit - index >= 3, origin.load(fromByteOffset: index, as: UInt8.self) == 0x02 else { return nil }
        let count = Int(origin.load(fromByteOffset: index + 1, as: UInt8.self))
        guard count <= limit - index - 2,
              let value = asn1Int64(content: UnsafeRawBufferPointer(start: origin + index + 2, count: count)),
              let result = Int(exactly: value)
        else { return nil }
        index += 2 + count
        return result
    }

    /// Any BER form, or the precise error.
    private mutating func readInGeneral(_ origin: UnsafeRawPointer) throws(ReceiptError) -> ReceiptAttribute {
        do throws(ASN1Error) {
            var reader = ASN1Reader(UnsafeRawBufferPointer(start: origin + position, count: end - position), rules: .ber,
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
            guard let typeInt = Int(exactly: typeValue) else { throw type.error(.integerOverflow) }
            guard let versionInt = Int(exactly: version) else { throw versionElement.error(.integerOverflow) }
            position = reader.offset
            return ReceiptAttribute(type: typeInt, version: versionInt, valueRange: value.contentRange, offset: sequence.offset)
        } catch {
            throw .payload(error)
        }
    }
}

/// Typed views of attribute values. Each reads the value's octets as one DER/BER element of the
/// expected type, with nothing after it; a mismatch is `invalidAttribute`. A primitive element
/// in the common header form is read in place; anything else goes through `ASN1Reader`.
struct AttributeValue {
    /// The payload storage (offsets are indexes into it).
    let bytes: UnsafeRawBufferPointer
    let attribute: ReceiptAttribute

    private var invalid: ReceiptError { .invalidAttribute(type: attribute.type, offset: attribute.offset) }

    /// The content of the value when it is one primitive element with this universal tag number
    /// in the common header form filling the value exactly.
    private func commonFormContent(_ tag: ASN1Tag) -> UnsafeRawBufferPointer? {
        guard let origin = bytes.baseAddress,
              let header = ASN1CommonHeader.decode(origin, at: attribute.valueRange.lowerBound, end: attribute.valueRange.upperBound),
              header.identifier == UInt8(tag.number), header.contentEnd == attribute.valueRange.upperBound
        else { return nil }
        return UnsafeRawBufferPointer(start: origin + header.contentStart, count: header.contentEnd - header.contentStart)
    }

    /// The value as one element of `tag` under BER, or `invalidAttribute`.
    private func element(_ tag: ASN1Tag) throws(ReceiptError) -> ASN1Element {
        var reader = ASN1Reader(UnsafeRawBufferPointer(rebasing: bytes[attribute.valueRange]), rules: .ber,
                                baseOffset: attribute.valueRange.lowerBound)
        do {
            let element = try reader.readElement()
            guard element.tag.asPrimitive == tag else { throw invalid }
            try reader.finish()
            return element
        } catch {
            throw invalid
        }
    }

    /// INTEGER as Int64.
    func integer() throws(ReceiptError) -> Int64 {
        if let content = commonFormContent(.integer), let value = asn1Int64(content: content) { return value }
        do { return try element(.integer).int64Value() } catch { throw invalid }
    }

    /// UTF8String; empty means absent (`nil`).
    func utf8String() throws(ReceiptError) -> String? {
        try string(.utf8)
    }

    /// IA5String; empty means absent.
    func ia5String() throws(ReceiptError) -> String? {
        try string(.ia5)
    }

    /// IA5String or UTF8String (receipts write some text fields either way); empty means absent.
    func ia5OrUTF8String() throws(ReceiptError) -> String? {
        let utf8Tag = UInt8(ASN1Tag.utf8String.number)
        let isUTF8 = attribute.valueRange.count > 0 && bytes[attribute.valueRange.lowerBound] & 0xDF == utf8Tag
        return try string(isUTF8 ? .utf8 : .ia5)
    }

    private func string(_ kind: ASN1StringKind) throws(ReceiptError) -> String? {
        if let content = commonFormContent(kind.tag) {
            guard !content.isEmpty else { return nil }
            guard let text = kind.decode(content) else { throw invalid }
            return text
        }
        return try stringInGeneral(kind)
    }

    /// BER forms (possibly constructed); empty means absent.
    private func stringInGeneral(_ kind: ASN1StringKind) throws(ReceiptError) -> String? {
        let element = try element(kind.tag)
        do {
            let text = try element.stringValue(kind)
            return text.isEmpty ? nil : text
        } catch {
            throw invalid
        }
    }

    /// UTF8String checked now and kept in place (built into a `String` when read); empty means
    /// absent.
    func utf8Text() throws(ReceiptError) -> ReceiptText? {
        if let content = commonFormContent(.utf8String), let origin = bytes.baseAddress {
            guard !content.isEmpty else { return nil }
            guard ASN1StringKind.utf8.isValid(content) else { throw invalid }
            let start = content.baseAddress! - origin
            return .bytes(start ..< start + content.count)
        }
        return try stringInGeneral(.utf8).map(ReceiptText.decoded)
    }

    /// INTEGER 0 or 1.
    func flag() throws(ReceiptError) -> Bool {
        switch try integer() {
        case 0: return false
        case 1: return true
        default: throw invalid
        }
    }

    /// IA5String date (RFC 3339); empty means absent.
    /// (The RFC 3339 grammar admits only ASCII, so it also checks the IA5String alphabet.)
    func date() throws(ReceiptError) -> Date? {
        let milliseconds: Int64?
        if let content = commonFormContent(.ia5String) {
            guard !content.isEmpty else { return nil }
            milliseconds = RFC3339.milliseconds(content)
        } else {
            let joined: [UInt8]   // BER: possibly constructed
            do { joined = try element(.ia5String).octetStringValue().copyBytes() } catch { throw invalid }
            guard !joined.isEmpty else { return nil }
            milliseconds = joined.withUnsafeBytes { RFC3339.milliseconds($0) }
        }
        guard let milliseconds else { throw invalid }
        return Date(millisecondsSince1970: milliseconds)
    }

    /// The value's octets as they are (opaque value, SHA-1 hash).
    var raw: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[attribute.valueRange]) }
}

extension Date {
    /// The date `milliseconds` after 1970-01-01T00:00:00Z.
    public init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Whole milliseconds since 1970 (exact for every date a receipt can hold).
    public var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }
}
