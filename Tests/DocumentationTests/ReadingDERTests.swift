import DER
import Testing

/// Runs the code of "Reading any DER with the zero-copy reader".
@Suite struct ReadingDERTests {
    @Test func theWrittenIdentifierReadsBack() throws {
        let der = sha256WithRSAIdentifier()
        #expect(der == [0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B, 0x05, 0x00])
        #expect(try isSHA256WithRSA(der))
        var sha1WithRSA = DERWriter()
        sha1WithRSA.appendSequence { $0.appendObjectIdentifier(ASN1ObjectIdentifier("1.2.840.113549.1.1.5")) }
        #expect(try isSHA256WithRSA(sha1WithRSA.bytes) == false)
    }

    @Test func errorsNameTheKindAndTheOffset() {
        #expect(trailingByteError() == ASN1Error(.trailingBytes, at: 15))
    }

    @Test func rangesIndexTheInput() throws {
        let der = sha256WithRSAIdentifier()
        let children = try childRanges(der)
        #expect(children.map(\.tag) == [.objectIdentifier, .null])
        #expect(children.map(\.content) == [4 ..< 13, 15 ..< 15])
        #expect(Array(der[children[0].content]) == ASN1ObjectIdentifier("1.2.840.113549.1.1.11").encodedContent)
    }

    @Test func indefiniteLengthsAreBEROnly() throws {
        let indefinite: [UInt8] = [0x30, 0x80, 0x05, 0x00, 0x00, 0x00]
        try readSequenceOfNull(indefinite, rules: .ber)
        #expect(throws: ASN1Error(.indefiniteLength, at: 0)) { try readSequenceOfNull(indefinite, rules: .der) }
        try readSequenceOfNull([0x30, 0x02, 0x05, 0x00], rules: .der)
    }

    @Test func theOutlineListsEveryElement() throws {
        #expect(
            try outline(sha256WithRSAIdentifier(), rules: .der) == [
                "0: [UNIVERSAL 16] (13 bytes)",
                "2:   [UNIVERSAL 6] (9 bytes)",
                "13:   [UNIVERSAL 5] (0 bytes)",
            ])
    }
}
