import DER

/// Display text for an X.501 Name (RFC 5280 §4.1.2.4). Names are compared as raw DER bytes;
/// this text is only for people and error messages.
public enum DistinguishedName: Sendable {
    /// `C=US,O=Apple Inc.,OU=…,CN=…` in encoded order; unknown attribute types as dotted OIDs,
    /// undecodable values as `#hex`. Malformed names give `<malformed name>`.
    public static func describe(_ encoded: some Collection<UInt8>) -> String {
        let bytes = Array(encoded)
        return (try? bytes.withRawBytes { (raw) throws(ASN1Error) in try describe(raw) }) ?? "<malformed name>"
    }

    private static func describe(_ raw: UnsafeRawBufferPointer) throws(ASN1Error) -> String {
        var reader = ASN1Reader(raw, rules: .der)
        var rdns = try reader.readSequence()
        try reader.finish()
        var parts: [String] = []
        while !rdns.isAtEnd {
            var attributes = try rdns.read(.set).children()
            while !attributes.isAtEnd {
                var pair = try attributes.readSequence()
                let type = try pair.read(.objectIdentifier).objectIdentifierValue()
                let value = try pair.readElement()
                let name = OIDs.nameAttributes.first { $0.0 == type }?.1 ?? type.description
                parts.append(name + "=" + text(of: value))
            }
        }
        return parts.joined(separator: ",")
    }

    private static func text(of value: ASN1Element) -> String {
        if let kind = ASN1StringKind(tag: value.tag), let text = try? value.stringValue(kind) { return text }
        return "#" + value.encoded.map { String($0, radix: 16).leftPadded(2) }.joined()
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
