// BOOLEAN, NULL, INTEGER, BIT STRING and primitive OCTET STRING contents (X.690 §8.2, §8.3,
// §8.6, §8.7, §8.8; DER §11.1–11.2). Encodings of integers were produced with
// `openssl asn1parse -genstr INTEGER:<v>` (OpenSSL 3) when this file was written.

import Testing
@testable import DER
import TestHelpers

@Suite("Values: BOOLEAN, NULL, INTEGER, BIT STRING, OCTET STRING")
struct PrimitiveValueTests {
    // MARK: BOOLEAN

    @Test("§8.2 / §11.1 BOOLEAN: FF true, 00 false in DER; any non-zero true in BER")
    func boolean() throws {
        #expect(try withElement(Hex.bytes("01 01 FF"), .der) { e throws(ASN1Error) in try e.boolValue() } == true)
        #expect(try withElement(Hex.bytes("01 01 00"), .der) { e throws(ASN1Error) in try e.boolValue() } == false)
        for byte: UInt8 in [0x01, 0x7F, 0x80, 0xFE] {
            let bytes: [UInt8] = [0x01, 0x01, byte]
            #expect(try withElement(bytes, .ber) { e throws(ASN1Error) in try e.boolValue() } == true)
            #expect(
                caught { try withElement(bytes, .der) { e throws(ASN1Error) in try e.boolValue() } }
                    == ASN1Error(.invalidBoolean, at: 0))
        }
        #expect(try withElement(Hex.bytes("01 01 00"), .ber) { e throws(ASN1Error) in try e.boolValue() } == false)
        for rules in [EncodingRules.der, .ber] {
            #expect(
                caught { try withElement(Hex.bytes("01 00"), rules) { e throws(ASN1Error) in try e.boolValue() } }
                    == ASN1Error(.invalidBoolean, at: 0))
            #expect(
                caught { try withElement(Hex.bytes("01 02 FF FF"), rules) { e throws(ASN1Error) in try e.boolValue() } }
                    == ASN1Error(.invalidBoolean, at: 0))
        }
        // Reader convenience checks the tag.
        let viaReader = try ASN1Reader.parse(Hex.bytes("30 06 01 01 FF 01 01 00"), rules: .der) {
            (r: inout ASN1Reader) throws(ASN1Error) -> [Bool] in
            var s = try r.readSequence()
            let values = [try s.readBool(), try s.readBool()]
            try s.finish()
            return values
        }
        #expect(viaReader == [true, false])
        #expect(
            caught {
                try ASN1Reader.parse(Hex.bytes("02 01 01"), rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in _ = try r.readBool() }
            } == ASN1Error(.unexpectedTag(expected: .boolean, found: .integer), at: 0))
    }

    // MARK: NULL

    @Test("§8.8.2 NULL has no content")
    func null() throws {
        for rules in [EncodingRules.der, .ber] {
            try ASN1Reader.parse(Hex.bytes("05 00"), rules: rules) { (r: inout ASN1Reader) throws(ASN1Error) in try r.readNull() }
            #expect(
                caught {
                    try ASN1Reader.parse(Hex.bytes("05 01 00"), rules: rules) { (r: inout ASN1Reader) throws(ASN1Error) in try r.readNull() }
                } == ASN1Error(.invalidNull, at: 0))
            #expect(
                caught {
                    try ASN1Reader.parse(Hex.bytes("30 03 05 01 00"), rules: rules) { (r: inout ASN1Reader) throws(ASN1Error) in
                        var s = try r.readSequence()
                        try s.readNull()
                    }
                } == ASN1Error(.invalidNull, at: 2))
        }
    }

    // MARK: INTEGER

    struct IntegerVector: Sendable, CustomTestStringConvertible {
        let value: Int64
        let encoding: String
        var testDescription: String { "\(value) = \(encoding)" }
    }

    /// Minimal two's-complement encodings (X.690 §8.3.2), from `openssl asn1parse -genstr`.
    static let integers: [IntegerVector] = [
        IntegerVector(value: 0, encoding: "02 01 00"),
        IntegerVector(value: 1, encoding: "02 01 01"),
        IntegerVector(value: -1, encoding: "02 01 FF"),
        IntegerVector(value: 127, encoding: "02 01 7F"),
        IntegerVector(value: 128, encoding: "02 02 00 80"),
        IntegerVector(value: -128, encoding: "02 01 80"),
        IntegerVector(value: -129, encoding: "02 02 FF 7F"),
        IntegerVector(value: 255, encoding: "02 02 00 FF"),
        IntegerVector(value: 256, encoding: "02 02 01 00"),
        IntegerVector(value: -256, encoding: "02 02 FF 00"),
        IntegerVector(value: 32768, encoding: "02 03 00 80 00"),
        IntegerVector(value: -32768, encoding: "02 02 80 00"),
        IntegerVector(value: -32769, encoding: "02 03 FF 7F FF"),
        IntegerVector(value: 65535, encoding: "02 03 00 FF FF"),
        IntegerVector(value: Int64.max, encoding: "02 08 7F FF FF FF FF FF FF FF"),
        IntegerVector(value: Int64.min, encoding: "02 08 80 00 00 00 00 00 00 00"),
    ]

    @Test("§8.3 INTEGER: writer output and reader value", arguments: integers)
    func integerRoundTrip(_ v: IntegerVector) throws {
        let expected = Hex.bytes(v.encoding)
        var writer = DERWriter()
        writer.appendInteger(v.value)
        #expect(writer.bytes == expected)
        for rules in [EncodingRules.der, .ber] {
            let read = try ASN1Reader.parse(expected, rules: rules) { (r: inout ASN1Reader) throws(ASN1Error) -> Int64 in
                try r.readInt64()
            }
            #expect(read == v.value)
            let content = try withElement(expected, rules) { e throws(ASN1Error) in Array(try e.integerBytes()) }
            #expect(content == Array(expected.dropFirst(2)))
        }
        // Unsigned reading: the value when non-negative, negativeInteger otherwise.
        let unsigned = caught { try withElement(expected, .der) { e throws(ASN1Error) in try e.uint64Value() } }
        if v.value >= 0 {
            #expect(unsigned == nil)
            #expect(try withElement(expected, .der) { e throws(ASN1Error) in try e.uint64Value() } == UInt64(v.value))
        } else {
            #expect(unsigned == ASN1Error(.negativeInteger, at: 0))
        }
    }

    @Test("INTEGER beyond 64 bits: uint64Value up to 2^64-1, integerOverflow past it")
    func integerWidths() throws {
        // 2^63 (from openssl): too big for Int64, fits UInt64.
        let twoTo63 = Hex.bytes("02 09 00 80 00 00 00 00 00 00 00")
        #expect(caught { try withElement(twoTo63, .der) { e throws(ASN1Error) in try e.int64Value() } } == ASN1Error(.integerOverflow, at: 0))
        #expect(try withElement(twoTo63, .der) { e throws(ASN1Error) in try e.uint64Value() } == 1 << 63)
        // 2^64-1: the largest UInt64.
        let maxUnsigned = Hex.bytes("02 09 00 FF FF FF FF FF FF FF FF")
        #expect(try withElement(maxUnsigned, .der) { e throws(ASN1Error) in try e.uint64Value() } == UInt64.max)
        #expect(caught { try withElement(maxUnsigned, .der) { e throws(ASN1Error) in try e.int64Value() } } == ASN1Error(.integerOverflow, at: 0))
        // 2^64: nine magnitude octets.
        let twoTo64 = Hex.bytes("02 09 01 00 00 00 00 00 00 00 00")
        #expect(caught { try withElement(twoTo64, .der) { e throws(ASN1Error) in try e.uint64Value() } } == ASN1Error(.integerOverflow, at: 0))
        #expect(caught { try withElement(twoTo64, .der) { e throws(ASN1Error) in try e.int64Value() } } == ASN1Error(.integerOverflow, at: 0))
        // -2^63 - 1 (nine octets, negative).
        let belowMin = Hex.bytes("02 09 FF 7F FF FF FF FF FF FF FF")
        #expect(caught { try withElement(belowMin, .der) { e throws(ASN1Error) in try e.int64Value() } } == ASN1Error(.integerOverflow, at: 0))
        #expect(caught { try withElement(belowMin, .der) { e throws(ASN1Error) in try e.uint64Value() } } == ASN1Error(.negativeInteger, at: 0))
        // Reader conveniences, nested, with offsets.
        let seq = Hex.bytes("30 0E 02 01 FF 02 09 01 00 00 00 00 00 00 00 00")
        #expect(
            caught {
                try ASN1Reader.parse(seq, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
                    var s = try r.readSequence()
                    _ = try s.readInt64()
                    _ = try s.readUInt64()
                }
            } == ASN1Error(.integerOverflow, at: 5))
        #expect(
            caught {
                try ASN1Reader.parse(seq, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
                    var s = try r.readSequence()
                    _ = try s.readUInt64()
                }
            } == ASN1Error(.negativeInteger, at: 2))
    }

    static let integerRejections: [Rejection] = {
        var cases: [Rejection] = []
        for rules in [EncodingRules.der, .ber] {
            // §8.3.2: the first nine bits are not all zero or all one — a BER rule, so DER and BER alike.
            cases.append(Rejection("§8.3.2 non-minimal INTEGER 00 7F", "02 02 00 7F", rules, .nonMinimalInteger, at: 0))
            cases.append(Rejection("§8.3.2 non-minimal INTEGER FF 80", "02 02 FF 80", rules, .nonMinimalInteger, at: 0))
            cases.append(Rejection("§8.3.2 non-minimal INTEGER 00 00", "02 02 00 00", rules, .nonMinimalInteger, at: 0))
            cases.append(Rejection("§8.3.2 non-minimal INTEGER FF FF", "02 02 FF FF", rules, .nonMinimalInteger, at: 0))
            cases.append(Rejection("§8.3.2 non-minimal INTEGER 00 00 01", "02 03 00 00 01", rules, .nonMinimalInteger, at: 0))
            cases.append(Rejection("§8.3.2 non-minimal ENUMERATED 00 01", "0A 02 00 01", rules, .nonMinimalInteger, at: 0))
            cases.append(Rejection("§8.3.1 empty INTEGER", "02 00", rules, .emptyInteger, at: 0))
            cases.append(Rejection("§8.3.1 empty INTEGER nested", "30 05 02 01 01 02 00", rules, .emptyInteger, at: 5))
        }
        return cases
    }()

    @Test("INTEGER rules: rejected with the right kind and offset", arguments: integerRejections)
    func integerRejected(_ c: Rejection) {
        #expect(caught { try decodeSingle(c.bytes, c.rules) } == c.expected)
    }

    @Test("Non-minimal-looking but minimal INTEGERs are accepted (00 80, FF 7F)")
    func integerMinimalEdges() throws {
        #expect(try withElement(Hex.bytes("02 02 00 80"), .der) { e throws(ASN1Error) in try e.int64Value() } == 128)
        #expect(try withElement(Hex.bytes("02 02 FF 7F"), .der) { e throws(ASN1Error) in try e.int64Value() } == -129)
        #expect(try withElement(Hex.bytes("02 01 00"), .der) { e throws(ASN1Error) in try e.uint64Value() } == 0)
    }

    struct MagnitudeVector: Sendable, CustomTestStringConvertible {
        let name: String
        let magnitude: [UInt8]
        let encoding: [UInt8]
        var testDescription: String { name }
    }

    /// Unsigned magnitudes (serial numbers, RSA moduli): leading zeros dropped, a 00 added when the
    /// top bit is set (X.690 §8.3.2, positive two's complement).
    static let magnitudes: [MagnitudeVector] = [
        MagnitudeVector(name: "empty magnitude is 0", magnitude: [], encoding: Hex.bytes("02 01 00")),
        MagnitudeVector(name: "00 is 0", magnitude: [0], encoding: Hex.bytes("02 01 00")),
        MagnitudeVector(name: "leading zeros dropped", magnitude: [0, 0, 0x7F], encoding: Hex.bytes("02 01 7F")),
        MagnitudeVector(name: "top bit set needs 00", magnitude: [0x80, 0, 0], encoding: Hex.bytes("02 04 00 80 00 00")),
        MagnitudeVector(name: "leading zeros then top bit", magnitude: [0, 0, 0xFF], encoding: Hex.bytes("02 02 00 FF")),
        MagnitudeVector(
            name: "32 octets of FF", magnitude: [UInt8](repeating: 0xFF, count: 32),
            encoding: [0x02, 0x21, 0x00] + [UInt8](repeating: 0xFF, count: 32)),
        MagnitudeVector(
            name: "2048-bit modulus (long-form length 82 01 01)", magnitude: [0xC3] + [UInt8](repeating: 0x11, count: 255),
            encoding: [0x02, 0x82, 0x01, 0x01, 0x00, 0xC3] + [UInt8](repeating: 0x11, count: 255)),
    ]

    @Test("Unsigned INTEGER magnitudes: writer and reader", arguments: magnitudes)
    func unsignedMagnitude(_ v: MagnitudeVector) throws {
        var writer = DERWriter()
        writer.appendUnsignedInteger(v.magnitude)
        #expect(writer.bytes == v.encoding)
        let magnitude = try withElement(v.encoding, .der) { e throws(ASN1Error) in Array(try e.unsignedIntegerBytes()) }
        let expected = Array(v.magnitude.drop { $0 == 0 })
        #expect(magnitude == (expected.isEmpty ? [0] : expected))
        let fitsIn64 = expected.count <= 8
        #expect((caught { try withElement(v.encoding, .der) { e throws(ASN1Error) in try e.uint64Value() } } == nil) == fitsIn64)
    }

    @Test("Unsigned magnitude of a negative INTEGER is negativeInteger")
    func negativeMagnitude() {
        #expect(
            caught { try withElement(Hex.bytes("02 02 80 01"), .der) { e throws(ASN1Error) in try e.unsignedIntegerBytes() } }
                == ASN1Error(.negativeInteger, at: 0))
    }

    // MARK: BIT STRING

    /// X.690 §8.6.4.2 example: '0A3B5F291CD'H is 03 07 04 0A 3B 5F 29 1C D0 (44 bits, 4 unused).
    @Test("§8.6 BIT STRING: the X.690 example and bit(_:)")
    func bitStringExample() throws {
        let bytes = Hex.bytes("03 07 04 0A 3B 5F 29 1C D0")
        try ASN1Reader.parse(bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
            let bits = try r.readBitString()
            #expect(bits.unusedBitCount == 4)
            #expect(!bits.isOctetAligned)
            #expect(Array(bits.bytes) == Hex.bytes("0A 3B 5F 29 1C D0"))
            // The 44 bits as a binary string, most significant first: 0A3B5F291CD.
            let hex = "0A3B5F291CD"
            var expected: [Bool] = []
            for c in hex {
                let nibble = Int(String(c), radix: 16)!
                for shift in (0 ..< 4).reversed() { expected.append(nibble >> shift & 1 == 1) }
            }
            #expect(expected.count == 44)
            for i in 0 ..< 44 { #expect(bits.bit(i) == expected[i], "bit \(i)") }
            // Past the end (padding and beyond) and negative indexes read as zero (X.690 §11.2.2).
            for i in [44, 45, 47, 48, 1000, -1, Int.min] { #expect(!bits.bit(i), "bit \(i)") }
        }
        var writer = DERWriter()
        writer.appendBitString(Hex.bytes("0A 3B 5F 29 1C D0"), unusedBits: 4)
        #expect(writer.bytes == bytes)
    }

    @Test("BIT STRING round trips: aligned, with unused bits, empty")
    func bitStringRoundTrips() throws {
        // '101'B: 03 02 05 A0 (pyasn1 DER encoder).
        var writer = DERWriter()
        writer.appendBitString([0xA0], unusedBits: 5)
        writer.appendBitString([0xDE, 0xAD])
        writer.appendBitString([])
        #expect(writer.bytes == Hex.bytes("03 02 05 A0  03 03 00 DE AD  03 01 00"))
        let result = try ASN1Reader.parse(writer.bytes, rules: .der) {
            (r: inout ASN1Reader) throws(ASN1Error) -> [([UInt8], Int, [Bool])] in
            var out: [([UInt8], Int, [Bool])] = []
            while !r.isAtEnd {
                let b = try r.readBitString()
                out.append((Array(b.bytes), b.unusedBitCount, (0 ..< 4).map { b.bit($0) }))
            }
            return out
        }
        #expect(result.count == 3)
        #expect(result[0].0 == [0xA0] && result[0].1 == 5 && result[0].2 == [true, false, true, false])
        #expect(result[1].0 == [0xDE, 0xAD] && result[1].1 == 0 && result[1].2 == [true, true, false, true])
        #expect(result[2].0 == [] && result[2].1 == 0 && result[2].2 == [false, false, false, false])
        // keyUsage digitalSignature only: 03 02 07 80.
        let keyUsage = try withElement(Hex.bytes("03 02 07 80"), .der) { e throws(ASN1Error) in
            let b = try e.bitStringValue()
            return [b.bit(0), b.bit(1), b.bit(5)]
        }
        #expect(keyUsage == [true, false, false])
    }

    static let bitStringRejections: [Rejection] = {
        var cases: [Rejection] = []
        for rules in [EncodingRules.der, .ber] {
            cases.append(Rejection("§8.6.2 no initial octet", "03 00", rules, .invalidBitString, at: 0))
            cases.append(Rejection("§8.6.2.2 unused bits 8", "03 02 08 00", rules, .invalidBitString, at: 0))
            cases.append(Rejection("§8.6.2.2 unused bits FF", "03 02 FF 00", rules, .invalidBitString, at: 0))
            cases.append(Rejection("§8.6.2.3 unused bits on an empty string", "03 01 01", rules, .invalidBitString, at: 0))
            cases.append(Rejection("§8.6.2.3 unused bits 7 on an empty string", "03 01 07", rules, .invalidBitString, at: 0))
        }
        cases.append(Rejection("§11.2.1 non-zero unused bit (DER)", "03 02 01 01", .der, .invalidBitString, at: 0))
        cases.append(Rejection("§11.2.1 non-zero padding 7 bits (DER)", "03 02 07 C0", .der, .invalidBitString, at: 0))
        cases.append(Rejection("§11.2.1 non-zero padding nested (DER)", "30 06 05 00 03 02 04 0F", .der, .invalidBitString, at: 4))
        cases.append(
            Rejection("§8.6.4 constructed BIT STRING (BER, unsupported)", "23 80 03 02 00 AA 00 00", .ber, .unsupportedConstructedEncoding, at: 0))
        return cases
    }()

    @Test("BIT STRING rules: rejected with the right kind and offset", arguments: bitStringRejections)
    func bitStringRejected(_ c: Rejection) {
        #expect(caught { try decodeSingle(c.bytes, c.rules) } == c.expected)
    }

    @Test("BIT STRING non-zero padding is accepted in BER and the padding bits read as zero")
    func bitStringPaddingBER() throws {
        let bits = try withElement(Hex.bytes("03 02 07 FF"), .ber) { e throws(ASN1Error) in
            let b = try e.bitStringValue()
            return (0 ..< 8).map { b.bit($0) }
        }
        #expect(bits == [true, false, false, false, false, false, false, false])
    }

    // MARK: OCTET STRING (primitive)

    @Test("§8.7.2 primitive OCTET STRING: contiguous bytes, range, one segment")
    func octetStringPrimitive() throws {
        let content = Array(UInt8(0) ... UInt8(199))
        var writer = DERWriter()
        writer.appendSequence { w in
            w.appendNull()
            w.appendOctetString(content)
        }
        // 30 81 CD 05 00 04 81 C8 <200 bytes>: hand-computed lengths (2 + 3 + 200 = 205 = 0xCD).
        #expect(Array(writer.bytes.prefix(8)) == Hex.bytes("30 81 CD 05 00 04 81 C8"))
        #expect(writer.bytes.count == 3 + 205)
        try ASN1Reader.parse(writer.bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
            var s = try r.readSequence()
            try s.readNull()
            let os = try s.readOctetString()
            #expect(os.count == 200)
            #expect(os.contiguousBytes.map(Array.init) == content)
            #expect(os.contiguousRange == 8 ..< 208)
            var segments: [[UInt8]] = []
            try os.forEachSegment { segments.append(Array($0)) }
            #expect(segments == [content])
            #expect(try os.copyBytes() == content)
            try s.finish()
        }
        // Empty.
        let empty = try withElement(Hex.bytes("04 00"), .der) { e throws(ASN1Error) in
            let os = try e.octetStringValue()
            return (os.count, os.contiguousBytes?.count, try os.copyBytes())
        }
        #expect(empty.0 == 0 && empty.1 == 0 && empty.2 == [])
        // Wrong tag.
        #expect(
            caught {
                try ASN1Reader.parse(Hex.bytes("0C 01 41"), rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in _ = try r.readOctetString() }
            } == ASN1Error(.unexpectedTag(expected: .octetString, found: .utf8String), at: 0))
    }
}
