// Helpers shared by the DER tests: error capture, a full decoder that reads every value it meets,
// and a walk recorder. None of them uses the writer, so reader tests do not depend on it.

import Testing
@testable import DER
import TestHelpers

/// The `ASN1Error` that `body` throws, or `nil` when it returns. Any other error is a test failure.
/// (`body` is untyped: closures do not infer a typed `throws` from their body.)
func caught<R>(_ body: () throws -> R, sourceLocation: SourceLocation = #_sourceLocation) -> ASN1Error? {
    do {
        _ = try body()
        return nil
    } catch let error as ASN1Error {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Reads exactly one element from `bytes` under `rules` and hands it to `body`; trailing bytes fail.
func withElement<R>(
    _ bytes: [UInt8], _ rules: EncodingRules = .der, _ body: (ASN1Element) throws(ASN1Error) -> R
) throws(ASN1Error) -> R {
    try ASN1Reader.parse(bytes, rules: rules) { (reader: inout ASN1Reader) throws(ASN1Error) -> R in
        try body(try reader.readElement())
    }
}

/// Reads the one element `bytes` must hold (trailing bytes fail) and decodes every value in it by
/// its universal tag: constructed elements are descended into (a universal SET as a SET OF, so DER
/// checks its order), primitives are decoded with the matching value reader. The strictest use of
/// the reader a test can make.
func decodeSingle(_ bytes: [UInt8], _ rules: EncodingRules) throws(ASN1Error) {
    try ASN1Reader.parse(bytes, rules: rules) { (reader: inout ASN1Reader) throws(ASN1Error) in
        try decodeValue(try reader.readElement())
    }
}

func decodeAll(_ reader: inout ASN1Reader) throws(ASN1Error) {
    while !reader.isAtEnd {
        try decodeValue(try reader.readElement())
    }
}

func decodeValue(_ element: ASN1Element) throws(ASN1Error) {
    let tag = element.tag
    if tag == .set {
        var children = try element.setOfChildren()
        try decodeAll(&children)
        return
    }
    if tag.tagClass == .universal, let kind = ASN1StringKind(tag: tag) {
        _ = try element.stringValue(kind)
        return
    }
    if tag.tagClass == .universal {
        switch tag.asPrimitive {
        case .boolean: _ = try element.boolValue(); return
        case .integer, .enumerated: _ = try element.integerBytes(); return
        case .null: try element.nullValue(); return
        case .objectIdentifier: _ = try element.objectIdentifierBytes(); return
        case .bitString: _ = try element.bitStringValue(); return
        case .octetString: _ = try element.octetStringValue(); return
        case .utcTime: _ = try element.utcTimeValue(); return
        case .generalizedTime: _ = try element.generalizedTimeValue(); return
        default: break
        }
    }
    if tag.isConstructed {
        var children = try element.children()
        try decodeAll(&children)
    }
}

/// A walk event as plain values (an `ASN1Element` may not outlive the bytes it borrows).
enum WalkRecord: Equatable, CustomStringConvertible {
    case element(offset: Int, depth: Int, tag: ASN1Tag, headerLength: Int, length: Int?)
    case endOfContents(offset: Int, depth: Int)

    var description: String {
        switch self {
        case let .element(offset, depth, tag, headerLength, length):
            return "\(offset):d=\(depth) hl=\(headerLength) l=\(length.map(String.init) ?? "inf") \(tag)"
        case let .endOfContents(offset, depth):
            return "\(offset):d=\(depth) EOC"
        }
    }

    var isElement: Bool { if case .element = self { return true } else { return false } }
}

/// Walks `bytes` with `ASN1Reader.walk` and records every event.
func walkRecords(_ bytes: [UInt8], _ rules: EncodingRules) throws(ASN1Error) -> [WalkRecord] {
    var records: [WalkRecord] = []
    try ASN1Reader.parse(bytes, rules: rules) { (reader: inout ASN1Reader) throws(ASN1Error) in
        try reader.walk { event in
            switch event {
            case .element(let e):
                records.append(
                    .element(
                        offset: e.offset, depth: e.depth, tag: e.tag, headerLength: e.headerLength,
                        length: e.isIndefiniteLength ? nil : e.contentLength))
            case let .endOfContents(offset, depth):
                records.append(.endOfContents(offset: offset, depth: depth))
            }
        }
    }
    return records
}

/// Walks `bytes` counting events only (for the large inputs).
func walkCount(_ bytes: [UInt8], _ rules: EncodingRules) throws(ASN1Error) -> Int {
    var count = 0
    try ASN1Reader.parse(bytes, rules: rules) { (reader: inout ASN1Reader) throws(ASN1Error) in
        try reader.walk { _ in count += 1 }
    }
    return count
}

/// Length octets written by hand from X.690 §8.1.3 (independent of `DERWriter.appendLength`).
func lengthOctets(_ length: Int) -> [UInt8] {
    if length < 128 { return [UInt8(length)] }
    var octets: [UInt8] = []
    var v = length
    while v > 0 { octets.append(UInt8(v & 0xFF)); v >>= 8 }
    return [0x80 | UInt8(octets.count)] + octets.reversed()
}

/// `tag` + minimal length + `content`, assembled by hand.
func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
    [tag] + lengthOctets(content.count) + content
}

/// A primitive element whose content is ASCII `text` (times, strings).
func tlv(_ tag: UInt8, ascii text: String) -> [UInt8] {
    tlv(tag, Array(text.utf8))
}

/// A named rejection vector: decoding `bytes` under `rules` must fail with `kind` at `offset`.
struct Rejection: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let rules: EncodingRules
    let kind: ASN1Error.Kind
    let offset: Int

    init(_ name: String, _ hex: String, _ rules: EncodingRules, _ kind: ASN1Error.Kind, at offset: Int) {
        self.init(name, bytes: Hex.bytes(hex), rules, kind, at: offset)
    }

    init(_ name: String, bytes: [UInt8], _ rules: EncodingRules, _ kind: ASN1Error.Kind, at offset: Int) {
        self.name = name
        self.bytes = bytes
        self.rules = rules
        self.kind = kind
        self.offset = offset
    }

    var testDescription: String { "\(name) [\(rules)]" }
    var expected: ASN1Error { ASN1Error(kind, at: offset) }
}
