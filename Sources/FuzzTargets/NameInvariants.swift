import DER

/// The Name grammar (RFC 5280 §4.1.2.4, X.690 §11.6), read independently of `X509.Name` with the
/// plain DER reader, for the harnesses to hold parsed names to.
enum NameInvariants {
    static let country: [UInt8] = [0x55, 0x04, 0x06]
    /// commonName, organizationName, organizationalUnitName: DirectoryString.
    static let directoryStrings: [[UInt8]] = [[0x55, 0x04, 0x03], [0x55, 0x04, 0x0A], [0x55, 0x04, 0x0B]]
    static let directoryStringTags: [ASN1Tag] = [.t61String, .printableString, .universalString, .utf8String, .bmpString]

    static func check(_ name: ArraySlice<UInt8>, _ what: String, check: Checker) throws(InvariantViolation) {
        let problem: String? = Array(name).withUnsafeBytes { raw in
            do throws(ASN1Error) {
                var outer = ASN1Reader(raw, rules: .der)
                var rdns = try outer.readSequence()
                try outer.finish()
                while !rdns.isAtEnd {
                    let rdn = try rdns.readElement()
                    guard rdn.tag == .set else { return "an RDN is not a SET" }
                    var attributes = try rdn.children()
                    guard !attributes.isAtEnd else { return "an empty RDN" }
                    var previous: [UInt8]? = nil
                    while !attributes.isAtEnd {
                        let attribute = try attributes.readElement()
                        let encoded = Array(attribute.encoded)
                        if let previous, !isOrdered(previous, encoded) { return "an RDN out of DER order" }
                        previous = encoded
                        if let problem = try attributeProblem(attribute) { return problem }
                    }
                }
                return nil
            } catch {
                return "\(error)"
            }
        }
        if let problem { throw check.fail("\(what) accepted with \(problem)") }
    }

    static func attributeProblem(_ attribute: ASN1Element) throws(ASN1Error) -> String? {
        guard attribute.tag == .sequence else { return "an AttributeTypeAndValue that is not a SEQUENCE" }
        var fields = try attribute.children()
        let type = try fields.read(.objectIdentifier)
        let value = try fields.readElement()
        guard fields.isAtEnd else { return "an AttributeTypeAndValue of more than two elements" }
        let oid = Array(type.content)
        if oid == country {
            guard value.tag == .printableString, value.contentLength == 2,
                ASN1StringKind.printable.isValid(value.content)
            else { return "a countryName that is not two PrintableString characters" }
        } else if directoryStrings.contains(oid) {
            guard directoryStringTags.contains(value.tag), value.contentLength > 0, let kind = ASN1StringKind(tag: value.tag),
                kind.isValid(value.content)
            else { return "a \(oid) value that is not a valid DirectoryString" }
        }
        return nil
    }

    /// X.690 §11.6: `a` may precede `b` (shorter encodings padded with zero octets).
    static func isOrdered(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        for i in 0 ..< max(a.count, b.count) {
            let x = i < a.count ? a[i] : 0, y = i < b.count ? b[i] : 0
            if x != y { return x < y }
        }
        return true
    }
}
