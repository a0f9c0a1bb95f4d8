import DER

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
    @inline(__always)
    private func commonFormContent(_ tag: ASN1Tag) -> UnsafeRawBufferPointer? {
        guard let origin = bytes.baseAddress,
            let header = ASN1CommonHeader.decode(origin, at: attribute.valueRange.lowerBound, end: attribute.valueRange.upperBound),
            header.identifier == UInt8(tag.number), header.contentEnd == attribute.valueRange.upperBound
        else { return nil }
        return UnsafeRawBufferPointer(start: origin + header.contentStart, count: header.contentEnd - header.contentStart)
    }

    /// The value as one element of `tag` under BER, or `invalidAttribute`.
    private func element(_ tag: ASN1Tag) throws(ReceiptError) -> ASN1Element {
        var reader = ASN1Reader(
            UnsafeRawBufferPointer(rebasing: bytes[attribute.valueRange]), rules: .ber,
            baseOffset: attribute.valueRange.lowerBound)
        let element: ASN1Element
        do throws(ASN1Error) {
            element = try reader.readElement()
            try reader.finish()
        } catch {
            throw invalid
        }
        guard element.tag.asPrimitive == tag else { throw invalid }
        return element
    }

    /// INTEGER as Int64.
    @inline(__always)
    func integer() throws(ReceiptError) -> Int64 {
        if let content = commonFormContent(.integer), let value = asn1Int64(content: content) { return value }
        let element = try element(.integer)
        do throws(ASN1Error) { return try element.int64Value() } catch { throw invalid }
    }

    /// UTF8String; empty means absent (`nil`).
    func utf8String() throws(ReceiptError) -> String? {
        try string(.utf8)
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
        do throws(ASN1Error) {
            let text = try element.stringValue(kind)
            return text.isEmpty ? nil : text
        } catch {
            throw invalid
        }
    }

    /// UTF8String checked now and kept in place (built into a `String` when read); empty means
    /// absent. A BER constructed string's segments are joined at the end of `joined`.
    @inline(__always)
    func utf8Text(joined: inout [UInt8]) throws(ReceiptError) -> TextSpan? {
        if let content = commonFormContent(.utf8String), let origin = bytes.baseAddress {
            guard !content.isEmpty else { return nil }
            guard ASN1StringKind.utf8.isValid(content) else { throw invalid }
            return TextSpan(start: content.baseAddress! - origin, count: content.count, inJoined: false)
        }
        guard let text = try stringInGeneral(.utf8) else { return nil }
        let start = joined.count
        joined.append(contentsOf: text.utf8)
        return TextSpan(start: start, count: joined.count - start, inJoined: true)
    }

    /// INTEGER 0 or 1.
    func flag() throws(ReceiptError) -> Bool {
        switch try integer() {
        case 0: return false
        case 1: return true
        default: throw invalid
        }
    }

    /// IA5String date (RFC 3339) as milliseconds since 1970; empty means absent.
    /// (The RFC 3339 grammar admits only ASCII, so it also checks the IA5String alphabet.)
    @inline(__always)
    func milliseconds() throws(ReceiptError) -> Int64? {
        let milliseconds: Int64?
        if let content = commonFormContent(.ia5String) {
            guard !content.isEmpty else { return nil }
            milliseconds = RFC3339.milliseconds(content)
        } else {
            let joined: [UInt8]   // BER: possibly constructed
            let value = try element(.ia5String)
            do throws(ASN1Error) { joined = try value.octetStringValue().copyBytes() } catch { throw invalid }
            guard !joined.isEmpty else { return nil }
            milliseconds = joined.withUnsafeBytes { RFC3339.milliseconds($0) }
        }
        guard let milliseconds else { throw invalid }
        return milliseconds
    }

    /// The value's octets as they are (opaque value, SHA-1 hash).
    var raw: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[attribute.valueRange]) }
}
