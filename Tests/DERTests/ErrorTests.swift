// ASN1Error: `offset N: <reason>`, one distinct reason per kind, equality by kind and offset.

import Testing
@testable import DER
import TestHelpers

@Suite("ASN1Error")
struct ErrorTests {
    static let allKinds: [ASN1Error.Kind] = [
        .truncated, .nonMinimalTag, .tagNumberTooLarge, .unexpectedEndOfContents, .nonMinimalLength,
        .indefiniteLength, .indefiniteLengthPrimitive, .reservedLength, .lengthOverflow, .lengthPastEnd,
        .missingEndOfContents, .tooDeep, .trailingBytes, .unexpectedTag(expected: .integer, found: .boolean),
        .constructedPrimitiveType, .primitiveConstructedType, .constructedStringInDER, .unsupportedConstructedEncoding,
        .setNotSorted, .invalidBoolean, .emptyInteger, .nonMinimalInteger, .integerOverflow, .negativeInteger,
        .invalidBitString, .invalidNull, .invalidObjectIdentifier, .unexpectedObjectIdentifier, .invalidString,
        .invalidTime,
    ]

    @Test("description is `offset N: <reason>`")
    func descriptionFormat() {
        // The example reason given in the doc comment of `ASN1Error.Kind.reason`.
        #expect(ASN1Error(.nonMinimalLength, at: 12).description == "offset 12: non-minimal length encoding")
        #expect("\(ASN1Error(.nonMinimalLength, at: 0))" == "offset 0: non-minimal length encoding")
        for kind in Self.allKinds {
            let error = ASN1Error(kind, at: 4321)
            #expect(error.description == "offset 4321: \(kind.reason)")
            #expect(!kind.reason.isEmpty)
            #expect(!kind.reason.hasSuffix("."))
        }
    }

    @Test("Each kind has its own reason")
    func distinctReasons() {
        let reasons = Self.allKinds.map(\.reason)
        #expect(Set(reasons).count == reasons.count)
    }

    @Test("unexpectedTag names both tags; tooDeep names the limit")
    func reasonDetails() {
        let reason = ASN1Error.Kind.unexpectedTag(expected: .sequence, found: .set).reason
        #expect(reason.contains(ASN1Tag.sequence.description) && reason.contains(ASN1Tag.set.description))
        #expect(ASN1Error.Kind.tooDeep.reason.contains("\(ASN1Limits.maxDepth)"))
    }

    @Test("Errors compare by kind and offset")
    func equality() {
        #expect(ASN1Error(.truncated, at: 1) == ASN1Error(.truncated, at: 1))
        #expect(ASN1Error(.truncated, at: 1) != ASN1Error(.truncated, at: 2))
        #expect(ASN1Error(.truncated, at: 1) != ASN1Error(.lengthPastEnd, at: 1))
        #expect(
            ASN1Error.Kind.unexpectedTag(expected: .integer, found: .boolean)
                != .unexpectedTag(expected: .integer, found: .null))
    }

    @Test("A real failure reads well")
    func realFailure() throws {
        let error = try #require(caught { try decodeSingle(Hex.bytes("30 08 04 81 05 01 02 03 04 05"), .der) })
        #expect(error.description == "offset 2: non-minimal length encoding")
    }
}
