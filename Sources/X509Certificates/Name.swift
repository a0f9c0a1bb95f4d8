import DER

/// An X.501 Name read to its grammar, in DER (RFC 5280 §4.1.2.4):
///
///     Name ::= CHOICE { rdnSequence RDNSequence }
///     RDNSequence ::= SEQUENCE OF RelativeDistinguishedName
///     RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue
///     AttributeTypeAndValue ::= SEQUENCE { type AttributeType, value AttributeValue }
///
/// A multi-valued RDN's SET OF must be in DER order (X.690 §11.6), and the values of the types
/// RFC 5280 Appendix A gives a string syntax must have it (`NameAttributeSyntax`); other values
/// stay opaque. Each broken rule is its own `NameRule`. This decides which bytes are a Name;
/// Names are still compared as raw bytes.
package enum Name {
    /// Reads the next element of `reader` as a Name and returns it. The reader must use DER rules
    /// (a Name is compared byte for byte, so it must have one encoding); values of opaque types
    /// must be DER throughout too.
    package static func read(_ reader: inout ASN1Reader) throws(CertificateError) -> ASN1Element {
        let name = try asn1(reader.read(.sequence))
        guard name.encodedLength <= X509Limits.maxNameSize else { throw name.failure(.invalidName(.tooLarge)) }
        var rdns = try asn1(name.children())
        while !rdns.isAtEnd { try readRDN(&rdns) }
        return name
    }

    /// RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue, in DER order.
    static func readRDN(_ reader: inout ASN1Reader) throws(CertificateError) {
        let rdn = try asn1(reader.readElement())
        guard rdn.tag == .set else { throw rdn.failure(.invalidName(.rdnNotSet)) }
        var attributes = try asn1(rdn.children())
        guard !attributes.isAtEnd else { throw rdn.failure(.invalidName(.emptyRDN)) }
        try checkAttribute(asn1(attributes.readElement()))
        // Single-valued, as nearly every RDN is: nothing to order.
        guard !attributes.isAtEnd else { return }
        // Multi-valued: the rest through the reader that refuses elements out of DER order (X.690 §11.6).
        var ordered = try asn1(rdn.setOfChildren())
        _ = try asn1(ordered.readElement())
        while !ordered.isAtEnd {
            let attribute: ASN1Element
            do throws(ASN1Error) {
                attribute = try ordered.readElement()
            } catch {
                if error.kind == .setNotSorted { throw CertificateError(.invalidName(.rdnNotSorted), at: error.offset) }
                throw CertificateError(error)
            }
            try checkAttribute(attribute)
        }
    }

    /// AttributeTypeAndValue ::= SEQUENCE { type OBJECT IDENTIFIER, value ANY DEFINED BY type }.
    static func checkAttribute(_ attribute: ASN1Element) throws(CertificateError) {
        guard attribute.tag == .sequence else { throw attribute.failure(.invalidName(.attributeNotSequence)) }
        var fields = try asn1(attribute.children())
        guard !fields.isAtEnd else { throw attribute.failure(.invalidName(.attributeFieldCount)) }
        let type = try asn1(fields.readElement())
        guard type.tag == .objectIdentifier else { throw type.failure(.invalidName(.attributeTypeNotOID)) }
        let oid = try asn1(type.objectIdentifierBytes())
        guard !fields.isAtEnd else { throw attribute.failure(.invalidName(.attributeFieldCount)) }
        let value = try asn1(fields.readElement())
        guard fields.isAtEnd else { throw CertificateError(.invalidName(.attributeFieldCount), at: fields.offset) }
        // A type without a string syntax here: any one element, DER throughout (X.690 §10–11).
        guard let syntax = NameAttributeSyntax(oid) else { return try asn1(value.requireDER()) }
        try checkValue(value, syntax, type)
    }

    /// A value against the string syntax of its type (RFC 5280 Appendix A).
    static func checkValue(_ value: ASN1Element, _ syntax: NameAttributeSyntax, _ type: ASN1Element) throws(CertificateError) {
        let kind: ASN1StringKind
        switch syntax {
        case .directoryString:
            guard let found = ASN1StringKind(tag: value.tag), !value.tag.isConstructed,
                NameAttributeSyntax.directoryStringKinds.contains(found)
            else {
                throw value.failure(.invalidName(.notDirectoryString(try asn1(type.objectIdentifierValue()))))
            }
            kind = found
        case .string(let expected):
            guard value.tag == expected.tag else {
                throw value.failure(.invalidName(.wrongStringType(try asn1(type.objectIdentifierValue()), expected: expected)))
            }
            kind = expected
        case .countryName:
            guard value.tag == .printableString else {
                throw value.failure(.invalidName(.wrongStringType(try asn1(type.objectIdentifierValue()), expected: .printable)))
            }
            kind = .printable
        }
        guard value.contentLength > 0 else { throw value.failure(.invalidName(.emptyString(try asn1(type.objectIdentifierValue())))) }
        guard kind.isValid(value.content) else {
            throw value.failure(.invalidName(.invalidCharacters(try asn1(type.objectIdentifierValue()), kind)))
        }
        if syntax == .countryName && value.contentLength != 2 { throw value.failure(.invalidName(.countryNotTwoCharacters)) }
    }
}
