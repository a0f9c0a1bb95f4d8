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
struct AttributeReader {
    private var reader: ASN1Reader
    private var count = 0

    /// A reader over the SET encoded in `bytes[range]` (which it must fill exactly).
    init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) throws(ReceiptError) {
        do throws(ASN1Error) {
            var outer = ASN1Reader(UnsafeRawBufferPointer(rebasing: bytes[range]), rules: .ber, baseOffset: range.lowerBound)
            let set = try outer.read(.set)
            try outer.finish()
            reader = try set.setOfChildren()
        } catch {
            throw .payload(error)
        }
    }

    /// The next attribute, or `nil` after the last.
    mutating func next() throws(ReceiptError) -> ReceiptAttribute? {
        guard !reader.isAtEnd else { return nil }
        guard count < ReceiptLimits.maxAttributesPerSet else { throw .tooManyElements(offset: reader.offset) }
        count += 1
        do throws(ASN1Error) {
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
            return ReceiptAttribute(type: typeInt, version: versionInt, valueRange: value.contentRange, offset: sequence.offset)
        } catch {
            throw .payload(error)
        }
    }
}

/// Typed views of attribute values. Each reads the value's octets as one DER/BER element of the
/// expected type, with nothing after it; a mismatch is `invalidAttribute`.
struct AttributeValue {
    let bytes: UnsafeRawBufferPointer
    let attribute: ReceiptAttribute

    private func element(_ tag: ASN1Tag) throws(ReceiptError) -> ASN1Element {
        var reader = ASN1Reader(UnsafeRawBufferPointer(rebasing: bytes[attribute.valueRange]), rules: .ber,
                                baseOffset: attribute.valueRange.lowerBound)
        do {
            let element = try reader.read(tag)
            try reader.finish()
            return element
        } catch {
            throw invalid
        }
    }

    private var invalid: ReceiptError { .invalidAttribute(type: attribute.type, offset: attribute.offset) }

    /// INTEGER as Int64.
    func integer() throws(ReceiptError) -> Int64 {
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

    private func string(_ kind: ASN1StringKind) throws(ReceiptError) -> String? {
        let element = try element(kind.tag)
        guard element.contentLength > 0 else { return nil }
        do { return try element.stringValue(kind) } catch { throw invalid }
    }

    /// IA5String date (RFC 3339); empty means absent.
    func date() throws(ReceiptError) -> Date? {
        let element = try element(.ia5String)
        guard element.contentLength > 0 else { return nil }
        guard let milliseconds = RFC3339.milliseconds(element.content) else { throw invalid }
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
