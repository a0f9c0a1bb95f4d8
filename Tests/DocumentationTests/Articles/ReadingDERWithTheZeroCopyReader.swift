// The code of Sources/DER/DER.docc/ReadingDERWithTheZeroCopyReader.md, verbatim (ArticleSnippetTests
// checks it); ReadingDERTests runs it.

import DER

/// Whether `der` is the AlgorithmIdentifier of sha256WithRSAEncryption (RFC 4055 §5):
/// `SEQUENCE { algorithm OBJECT IDENTIFIER, parameters NULL OPTIONAL }`.
func isSHA256WithRSA(_ der: [UInt8]) throws(ASN1Error) -> Bool {
    let sha256WithRSA = ASN1ObjectIdentifier("1.2.840.113549.1.1.11")
    return try ASN1Reader.parse(der, rules: .der) { (reader: inout ASN1Reader) throws(ASN1Error) -> Bool in
        var fields = try reader.readSequence()
        let algorithm = try fields.readObjectIdentifierBytes()
        try fields.readOptional(.null)?.nullValue()
        try fields.finish()
        return sha256WithRSA.matches(algorithm)
    }
}

/// The same AlgorithmIdentifier, written as canonical DER.
func sha256WithRSAIdentifier() -> [UInt8] {
    var writer = DERWriter()
    writer.appendSequence { fields in
        fields.appendObjectIdentifier(ASN1ObjectIdentifier("1.2.840.113549.1.1.11"))
        fields.appendNull()
    }
    return writer.bytes
}

/// The error for one byte too many after the AlgorithmIdentifier.
func trailingByteError() -> ASN1Error? {
    do {
        _ = try isSHA256WithRSA(sha256WithRSAIdentifier() + [0x00])
        return nil
    } catch {
        return error   // ASN1Error(.trailingBytes, at: 15): the byte after the SEQUENCE
    }
}

/// The tag and content range of each child of a SEQUENCE: offsets into `der`, which stay
/// meaningful after the reader and its borrowed bytes are gone.
func childRanges(_ der: [UInt8]) throws(ASN1Error) -> [(tag: ASN1Tag, content: Range<Int>)] {
    typealias Child = (tag: ASN1Tag, content: Range<Int>)
    return try ASN1Reader.parse(der, rules: .der) { (reader: inout ASN1Reader) throws(ASN1Error) -> [Child] in
        var children = try reader.readSequence()
        var ranges: [Child] = []
        while !children.isAtEnd {
            let element = try children.readElement()
            ranges.append((element.tag, element.contentRange))
        }
        return ranges
    }
}

/// Reads `SEQUENCE { NULL }` under `rules`.
func readSequenceOfNull(_ bytes: [UInt8], rules: EncodingRules) throws(ASN1Error) {
    try ASN1Reader.parse(bytes, rules: rules) { (reader: inout ASN1Reader) throws(ASN1Error) in
        var children = try reader.readSequence()
        try children.readNull()
        try children.finish()
    }
}

/// One line per element, depth-first: offset, indentation by depth, tag and content length
/// (`receipt dump` prints the same walk in `openssl asn1parse`'s layout).
func outline(_ bytes: [UInt8], rules: EncodingRules) throws(ASN1Error) -> [String] {
    try ASN1Reader.parse(bytes, rules: rules) { (reader: inout ASN1Reader) throws(ASN1Error) -> [String] in
        var lines: [String] = []
        try reader.walk { event in
            if case .element(let element) = event {
                let indentation = String(repeating: "  ", count: element.depth)
                lines.append("\(element.offset): \(indentation)\(element.tag) (\(element.contentLength) bytes)")
            }
        }
        return lines
    }
}
