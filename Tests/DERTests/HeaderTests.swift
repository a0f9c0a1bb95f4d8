// Identifier and length octets (X.690 §8.1.2–8.1.3, DER §10.1): what is read, what is refused,
// and where the error points. Expected values are from X.690 or written out by hand from it.

import Testing
@testable import DER
import TestHelpers

@Suite("Header: identifier and length octets")
struct HeaderTests {
    // MARK: Identifier octets

    struct TagVector: Sendable, CustomTestStringConvertible {
        let name: String
        let identifier: String
        let tagClass: ASN1Tag.TagClass
        let number: UInt32
        let constructed: Bool
        var testDescription: String { name }
    }

    /// Identifier octets from X.690 §8.1.2 (bits 8–7 class, bit 6 constructed, 5–1 number or 11111
    /// followed by base-128 octets, the last with bit 8 clear).
    static let tagVectors: [TagVector] = [
        TagVector(name: "BOOLEAN 01", identifier: "01", tagClass: .universal, number: 1, constructed: false),
        TagVector(name: "SEQUENCE 30", identifier: "30", tagClass: .universal, number: 16, constructed: true),
        TagVector(name: "SET 31", identifier: "31", tagClass: .universal, number: 17, constructed: true),
        TagVector(name: "BMPString 1E (largest low-tag universal)", identifier: "1E", tagClass: .universal, number: 30, constructed: false),
        TagVector(name: "[0] primitive 80", identifier: "80", tagClass: .contextSpecific, number: 0, constructed: false),
        TagVector(name: "[0] constructed A0", identifier: "A0", tagClass: .contextSpecific, number: 0, constructed: true),
        TagVector(name: "[30] 9E", identifier: "9E", tagClass: .contextSpecific, number: 30, constructed: false),
        TagVector(name: "[APPLICATION 3] 43 (X.690 §8.14 example)", identifier: "43", tagClass: .application, number: 3, constructed: false),
        TagVector(name: "[APPLICATION 7] cons 67 (X.690 §8.14 example)", identifier: "67", tagClass: .application, number: 7, constructed: true),
        TagVector(name: "[PRIVATE 5] C5", identifier: "C5", tagClass: .private, number: 5, constructed: false),
        TagVector(name: "[PRIVATE 0] cons E0", identifier: "E0", tagClass: .private, number: 0, constructed: true),
        TagVector(name: "high tag 31 (9F 1F)", identifier: "9F 1F", tagClass: .contextSpecific, number: 31, constructed: false),
        TagVector(name: "high tag 31 universal (1F 1F)", identifier: "1F 1F", tagClass: .universal, number: 31, constructed: false),
        TagVector(name: "high tag 127 (5F 7F)", identifier: "5F 7F", tagClass: .application, number: 127, constructed: false),
        TagVector(name: "high tag 128 (BF 81 00)", identifier: "BF 81 00", tagClass: .contextSpecific, number: 128, constructed: true),
        TagVector(name: "high tag 16383 (DF FF 7F)", identifier: "DF FF 7F", tagClass: .private, number: 16383, constructed: false),
        TagVector(name: "high tag 16384 (9F 81 80 00)", identifier: "9F 81 80 00", tagClass: .contextSpecific, number: 16384, constructed: false),
        TagVector(
            name: "high tag 2^29-1 (FF 81 FF FF FF 7F)", identifier: "FF 81 FF FF FF 7F", tagClass: .private, number: (1 << 29) - 1, constructed: true
        ),
    ]

    @Test("Identifier octets decode to class, number and constructed bit", arguments: tagVectors)
    func identifierOctets(_ v: TagVector) throws {
        let identifier = Hex.bytes(v.identifier)
        for rules in [EncodingRules.der, .ber] {
            let (tag, headerLength, contentLength) = try withElement(identifier + [0x00], rules) { e in
                (e.tag, e.headerLength, e.contentLength)
            }
            #expect(tag == ASN1Tag(v.tagClass, number: v.number, constructed: v.constructed))
            #expect(tag.tagClass == v.tagClass)
            #expect(tag.number == v.number)
            #expect(tag.isConstructed == v.constructed)
            #expect(headerLength == identifier.count + 1)
            #expect(contentLength == 0)
        }
    }

    @Test("Folded tag: constructed bit distinguishes tags of the same number")
    func foldedTag() {
        #expect(ASN1Tag.octetString != ASN1Tag.octetString.asConstructed)
        #expect(ASN1Tag.octetString.asConstructed.asPrimitive == .octetString)
        #expect(ASN1Tag.sequence.isConstructed)
        #expect(!ASN1Tag.integer.isConstructed)
        #expect(ASN1Tag.contextSpecific(0) == ASN1Tag(.contextSpecific, number: 0, constructed: true))
        #expect(ASN1Tag.contextSpecific(0, constructed: false) != ASN1Tag.contextSpecific(0))
        #expect(ASN1Tag(.application, number: 5, constructed: false) != ASN1Tag(.private, number: 5, constructed: false))
        #expect(ASN1Tag.maxNumber == (1 << 29) - 1)
        // Universal tag numbers from X.680 §8.4 Table 1.
        let numbers: [(ASN1Tag, UInt32)] = [
            (.boolean, 1), (.integer, 2), (.bitString, 3), (.octetString, 4), (.null, 5), (.objectIdentifier, 6),
            (.enumerated, 10), (.utf8String, 12), (.sequence, 16), (.set, 17), (.numericString, 18),
            (.printableString, 19), (.t61String, 20), (.ia5String, 22), (.utcTime, 23), (.generalizedTime, 24),
            (.visibleString, 26), (.universalString, 28), (.bmpString, 30),
        ]
        for (tag, number) in numbers {
            #expect(tag.tagClass == .universal && tag.number == number, "\(tag)")
        }
    }

    @Test("Tag description names class and number")
    func tagDescription() {
        #expect(ASN1Tag.integer.description == "[UNIVERSAL 2]")
        #expect(ASN1Tag.octetString.asConstructed.description == "[UNIVERSAL 4] cons")
        #expect(ASN1Tag(.application, number: 3, constructed: false).description == "[APPLICATION 3]")
        #expect(ASN1Tag(.private, number: 200, constructed: false).description == "[PRIVATE 200]")
        #expect(ASN1Tag.contextSpecific(1, constructed: false).description == "[1]")
    }

    /// The doc comment of `ASN1Tag.description` says ` cons` is appended to constructed encodings of
    /// *normally primitive* types; SEQUENCE and SET are normally constructed.
    @Test("Tag description: SEQUENCE and SET are not marked cons (as documented)")
    func tagDescriptionOfSequence() {
        #expect(ASN1Tag.sequence.description == "[UNIVERSAL 16]")
        #expect(ASN1Tag.set.description == "[UNIVERSAL 17]")
    }

    // MARK: Length octets

    struct LengthVector: Sendable, CustomTestStringConvertible {
        let name: String
        let octets: String
        let value: Int
        var testDescription: String { name }
    }

    /// Minimal length octets (X.690 §8.1.3.4 short form below 128, §8.1.3.5 long form, §10.1 fewest
    /// octets). `81 C9` for 201 is the example of X.690 §8.1.3.5.
    static let minimalLengths: [LengthVector] = [
        LengthVector(name: "0 (00)", octets: "00", value: 0),
        LengthVector(name: "1 (01)", octets: "01", value: 1),
        LengthVector(name: "127 (7F)", octets: "7F", value: 127),
        LengthVector(name: "128 (81 80)", octets: "81 80", value: 128),
        LengthVector(name: "201 (81 C9, X.690 §8.1.3.5 example)", octets: "81 C9", value: 201),
        LengthVector(name: "255 (81 FF)", octets: "81 FF", value: 255),
        LengthVector(name: "256 (82 01 00)", octets: "82 01 00", value: 256),
        LengthVector(name: "65535 (82 FF FF)", octets: "82 FF FF", value: 65535),
        LengthVector(name: "65536 (83 01 00 00)", octets: "83 01 00 00", value: 65536),
    ]

    @Test("Minimal length octets are accepted under DER and BER", arguments: minimalLengths)
    func minimalLength(_ v: LengthVector) throws {
        let octets = Hex.bytes(v.octets)
        let bytes = [0x04] + octets + [UInt8](repeating: 0xA5, count: v.value)
        for rules in [EncodingRules.der, .ber] {
            let (headerLength, contentLength, encodedLength) = try withElement(bytes, rules) { e in
                (e.headerLength, e.contentLength, e.encodedLength)
            }
            #expect(headerLength == 1 + octets.count)
            #expect(contentLength == v.value)
            #expect(encodedLength == bytes.count)
        }
    }

    /// BER allows any number of length octets (X.690 §8.1.3.5 NOTE 2); DER does not (§10.1).
    static let nonMinimalLengths: [LengthVector] = [
        LengthVector(name: "0 as 81 00", octets: "81 00", value: 0),
        LengthVector(name: "5 as 81 05", octets: "81 05", value: 5),
        LengthVector(name: "127 as 81 7F", octets: "81 7F", value: 127),
        LengthVector(name: "5 as 82 00 05", octets: "82 00 05", value: 5),
        LengthVector(name: "128 as 82 00 80", octets: "82 00 80", value: 128),
        LengthVector(name: "255 as 83 00 00 FF", octets: "83 00 00 FF", value: 255),
        LengthVector(name: "2 as 88 00 00 00 00 00 00 00 02", octets: "88 00 00 00 00 00 00 00 02", value: 2),
    ]

    @Test("Non-minimal length octets: accepted in BER, nonMinimalLength in DER", arguments: nonMinimalLengths)
    func nonMinimalLength(_ v: LengthVector) throws {
        let octets = Hex.bytes(v.octets)
        let content = [UInt8](repeating: 0x5A, count: v.value)
        let bytes = [0x04] + octets + content
        let read = try withElement(bytes, .ber) { e throws(ASN1Error) in
            (e.headerLength, Array(try e.octetStringValue().copyBytes()))
        }
        #expect(read.0 == 1 + octets.count)
        #expect(read.1 == content)
        #expect(caught { try withElement(bytes, .der) { _ in } } == ASN1Error(.nonMinimalLength, at: 0))
        // Nested: the error points at the inner element.
        let nested = [0x30] + lengthOctets(bytes.count) + bytes
        #expect(caught { try decodeSingle(nested, .der) } == ASN1Error(.nonMinimalLength, at: nested.count - bytes.count))
        #expect(caught { try decodeSingle(nested, .ber) } == nil)
    }

    // MARK: Rejections

    /// Header-level rules. Offsets are those of the first identifier octet of the faulty element.
    static let rejections: [Rejection] = {
        var cases: [Rejection] = []
        func both(_ name: String, _ hex: String, _ kind: ASN1Error.Kind, at offset: Int) {
            cases.append(Rejection(name, hex, .der, kind, at: offset))
            cases.append(Rejection(name, hex, .ber, kind, at: offset))
        }
        // X.690 §10.1: definite form, fewest length octets.
        cases.append(Rejection("§10.1 non-minimal length 81 05", "04 81 05 01 02 03 04 05", .der, .nonMinimalLength, at: 0))
        cases.append(
            Rejection(
                "§10.1 non-minimal length 82 00 80", bytes: Hex.bytes("04 82 00 80") + [UInt8](repeating: 0, count: 128), .der, .nonMinimalLength,
                at: 0))
        cases.append(
            Rejection(
                "§10.1 long form for 127 (81 7F)", bytes: Hex.bytes("04 81 7F") + [UInt8](repeating: 0, count: 127), .der, .nonMinimalLength, at: 0))
        cases.append(Rejection("§10.1 non-minimal length in a nested element", "30 08 04 81 05 01 02 03 04 05", .der, .nonMinimalLength, at: 2))
        cases.append(Rejection("§10.1 indefinite length", "30 80 00 00", .der, .indefiniteLength, at: 0))
        cases.append(Rejection("§10.1 indefinite length nested", "30 04 30 80 00 00", .der, .indefiniteLength, at: 2))
        cases.append(Rejection("§10.1 indefinite length on a primitive (DER reports indefinite)", "04 80 00 00", .der, .indefiniteLength, at: 0))
        // §8.1.3: the length must fit the input and the enclosing element.
        both("length past the end of the input", "04 05 01 02", .lengthPastEnd, at: 0)
        both("length past the end of the enclosing element", "30 03 04 03 01 02 03", .lengthPastEnd, at: 2)
        both("outer length past the end", "30 05 04 01 00", .lengthPastEnd, at: 0)
        both("length 2^32-1 (84 FF FF FF FF)", "30 84 FF FF FF FF 05 00", .lengthPastEnd, at: 0)
        // Lengths beyond a 32-bit Int: the same verdict where Int has 32 bits (wasm32, arm64_32).
        both("length 2^31 (84 80 00 00 00)", "04 84 80 00 00 00 00", .lengthPastEnd, at: 0)
        both("length 2^32 in five octets (85 01 00 00 00 00)", "04 85 01 00 00 00 00 00", .lengthPastEnd, at: 0)
        both("length 2^56 in eight octets (88 01 00 ...)", "04 88 01 00 00 00 00 00 00 00 00", .lengthPastEnd, at: 0)
        both("length Int.max (88 7F FF FF FF FF FF FF FF)", "04 88 7F FF FF FF FF FF FF FF 00", .lengthPastEnd, at: 0)
        both("length 2^63 overflows Int (88 80 00 ...)", "04 88 80 00 00 00 00 00 00 00 00", .lengthOverflow, at: 0)
        both("length 2^64-1 overflows Int (88 FF ...)", "04 88 FF FF FF FF FF FF FF FF 00", .lengthOverflow, at: 0)
        both("nine length octets overflow Int (89 ...)", "04 89 01 00 00 00 00 00 00 00 00 00", .lengthOverflow, at: 0)
        both("127 length octets overflow Int (FE)", "04 FE 01", .lengthOverflow, at: 0)
        both("§8.1.3.5 c reserved length octet FF", "04 FF 00", .reservedLength, at: 0)
        both("reserved length octet FF nested", "30 03 04 FF 00", .reservedLength, at: 2)
        // Truncated headers.
        both("truncated: identifier only", "30", .truncated, at: 0)
        both("truncated: high tag without its number", "9F", .truncated, at: 0)
        both("truncated: high tag number unfinished", "9F 81", .truncated, at: 0)
        both("truncated: long-form length octets missing", "04 82 01", .truncated, at: 0)
        both("truncated: nested header cut by the enclosing length", "30 01 9F 1F", .truncated, at: 2)
        // Identifier octets (§8.1.2).
        both("§8.1.2.2 high-tag form for number 30", "9F 1E 00", .nonMinimalTag, at: 0)
        both("§8.1.2.2 high-tag form for INTEGER (2)", "1F 02 01 00", .nonMinimalTag, at: 0)
        both("§8.1.2.4.2 c high tag with leading 80 octet", "9F 80 1F 00", .nonMinimalTag, at: 0)
        both("tag number 2^29 too large", "9F 82 80 80 80 00 00", .tagNumberTooLarge, at: 0)
        both("tag number 2^35 too large", "BF 81 80 80 80 80 00 00", .tagNumberTooLarge, at: 0)
        both("tag number too large nested", "30 08 05 00 9F 82 80 80 80 00", .tagNumberTooLarge, at: 4)
        // §8.1.5: end-of-contents only closes an indefinite length.
        both("§8.1.5 end-of-contents at top level", "00 00", .unexpectedEndOfContents, at: 0)
        both("§8.1.5 end-of-contents in a definite SEQUENCE", "30 02 00 00", .unexpectedEndOfContents, at: 2)
        both("§8.1.5 end-of-contents after a child of a definite SEQUENCE", "30 04 05 00 00 00", .unexpectedEndOfContents, at: 4)
        both("[UNIVERSAL 0] with content", "00 01 00", .unexpectedEndOfContents, at: 0)
        both("[UNIVERSAL 0] constructed", "20 00", .unexpectedEndOfContents, at: 0)
        // Universal types with a fixed form (§8.2.1, §8.3.1, §8.8.1, §8.19.1, §8.4, §8.9.1, §8.11.1).
        both("§8.2.1 constructed BOOLEAN (21)", "21 03 01 01 FF", .constructedPrimitiveType, at: 0)
        both("§8.3.1 constructed INTEGER (22)", "22 03 02 01 00", .constructedPrimitiveType, at: 0)
        both("§8.8.1 constructed NULL (25)", "25 00", .constructedPrimitiveType, at: 0)
        both("§8.19.1 constructed OBJECT IDENTIFIER (26)", "26 03 06 01 00", .constructedPrimitiveType, at: 0)
        both("§8.4 constructed ENUMERATED (2A)", "2A 03 0A 01 00", .constructedPrimitiveType, at: 0)
        both("§8.5.1 constructed REAL (29)", "29 00", .constructedPrimitiveType, at: 0)
        both("§8.20.1 constructed RELATIVE-OID (2D)", "2D 01 00", .constructedPrimitiveType, at: 0)
        both("constructed INTEGER nested", "30 05 22 03 02 01 00", .constructedPrimitiveType, at: 2)
        both("§8.9.1 primitive SEQUENCE (10)", "10 00", .primitiveConstructedType, at: 0)
        both("§8.11.1 primitive SET (11)", "11 00", .primitiveConstructedType, at: 0)
        cases.append(Rejection("§8.2.1 constructed BOOLEAN, indefinite (BER)", "21 80 01 01 FF 00 00", .ber, .constructedPrimitiveType, at: 0))
        // §10.2: strings primitive in DER.
        cases.append(Rejection("§10.2 constructed OCTET STRING (24)", "24 03 04 01 AA", .der, .constructedStringInDER, at: 0))
        cases.append(Rejection("§10.2 constructed BIT STRING (23)", "23 04 03 02 00 AA", .der, .constructedStringInDER, at: 0))
        cases.append(Rejection("§10.2 constructed UTF8String (2C)", "2C 03 04 01 41", .der, .constructedStringInDER, at: 0))
        cases.append(Rejection("§10.2 constructed PrintableString (33)", "33 03 04 01 41", .der, .constructedStringInDER, at: 0))
        cases.append(Rejection("§10.2 constructed IA5String (36)", "36 03 04 01 41", .der, .constructedStringInDER, at: 0))
        cases.append(Rejection("§10.2 constructed BMPString (3E)", "3E 04 04 02 00 41", .der, .constructedStringInDER, at: 0))
        cases.append(
            Rejection(
                "§10.2 constructed UTCTime (37)", bytes: [0x37, 0x0F] + tlv(0x04, ascii: "230101120000Z"), .der, .constructedStringInDER, at: 0))
        cases.append(Rejection("§10.2 constructed string nested", "30 05 24 03 04 01 AA", .der, .constructedStringInDER, at: 2))
        // Trailing data (offset: first trailing byte).
        both("trailing byte after NULL", "05 00 00", .trailingBytes, at: 2)
        both("trailing bytes after INTEGER", "02 01 01 FF FF", .trailingBytes, at: 3)
        both("trailing element after SEQUENCE", "30 00 30 00", .trailingBytes, at: 2)
        return cases
    }()

    /// Reading the single top-level element must fail as listed (the content is not decoded, except
    /// that nested headers are reached by descending).
    @Test("Header rules: rejected with the right kind and offset", arguments: rejections)
    func rejected(_ c: Rejection) {
        #expect(caught { try decodeSingle(c.bytes, c.rules) } == c.expected)
    }

    /// X.680 §44.5 defines CHARACTER STRING as `[UNIVERSAL 29] IMPLICIT SEQUENCE {…}`, so its encoding
    /// is constructed in DER as in BER; it is not one of the string types of X.690 §10.2.
    @Test("[UNIVERSAL 29] CHARACTER STRING is constructed and allowed so in DER")
    func characterStringIsConstructed() {
        let bytes = Hex.bytes("3D 03 80 01 00")   // [UNIVERSAL 29] { [0]… } — header only matters here
        #expect(caught { try withElement(bytes, .der) { _ in } } == nil)
        #expect(caught { try withElement(bytes, .ber) { _ in } } == nil)
    }

    @Test("readElement at the end of input is truncated at the end offset")
    func readPastEnd() throws {
        #expect(caught { try withElement([], .der) { _ in } } == ASN1Error(.truncated, at: 0))
        let bytes = Hex.bytes("05 00")
        let error = caught {
            try ASN1Reader.parse(bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
                try r.readNull()
                _ = try r.readElement()
            }
        }
        #expect(error == ASN1Error(.truncated, at: 2))
    }

    @Test("Huge claimed lengths are refused at once, without reading the content")
    func hugeClaimedLengths() {
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for rules in [EncodingRules.der, .ber] {
                // 4 GiB claimed, 2 bytes present.
                #expect(
                    caught { try walkCount(Hex.bytes("30 84 FF FF FF FF 05 00"), rules) }
                        == ASN1Error(.lengthPastEnd, at: 0))
                #expect(
                    caught { try withElement(Hex.bytes("30 84 FF FF FF FF 05 00"), rules) { _ in } }
                        == ASN1Error(.lengthPastEnd, at: 0))
                // 2^63 and 2^64-1: do not fit in Int.
                #expect(
                    caught { try walkCount(Hex.bytes("30 88 80 00 00 00 00 00 00 00 05 00"), rules) }
                        == ASN1Error(.lengthOverflow, at: 0))
                #expect(
                    caught { try walkCount(Hex.bytes("30 88 FF FF FF FF FF FF FF FF 05 00"), rules) }
                        == ASN1Error(.lengthOverflow, at: 0))
                // Int.max fits in Int but not in the input; Int.max - (header) must not overflow.
                #expect(
                    caught { try walkCount(Hex.bytes("30 88 7F FF FF FF FF FF FF FF 05 00"), rules) }
                        == ASN1Error(.lengthPastEnd, at: 0))
                #expect(
                    caught { try walkCount(Hex.bytes("30 0A 04 88 7F FF FF FF FF FF FF F5"), rules) }
                        == ASN1Error(.lengthPastEnd, at: 2))
            }
        }
        #expect(elapsed < .seconds(1))
    }
}
