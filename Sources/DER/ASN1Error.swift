/// A reading failure: what was wrong and the byte offset of the element at fault.
///
/// The offset is counted from the start of the buffer given to the outermost reader, so it
/// points into the caller's file. It holds no strings: building messages is left to `description`.
public struct ASN1Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public let kind: Kind
    /// Byte offset of the element at fault (or of the first unexpected byte, for trailing data).
    public let offset: Int

    /// Makes an error of `kind` at byte `offset` (counted from the start of the outermost reader's buffer).
    @inlinable
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// Kinds of reading failure.
    public enum Kind: Sendable, Hashable {
        // Structure (X.690 §8.1)
        /// The input ended inside an identifier or length, or where an element was required.
        case truncated
        /// A high-tag-number form that is not minimal (X.690 §8.1.2.4.2 c) or used for a number
        /// below 31 (§8.1.2.2).
        case nonMinimalTag
        /// A tag number beyond `ASN1Tag.maxNumber`.
        case tagNumberTooLarge
        /// `[UNIVERSAL 0]` other than a well-formed end-of-contents, or end-of-contents where an
        /// element was required (X.690 §8.1.5).
        case unexpectedEndOfContents
        /// Long-form length where the short form fits, or with leading zero octets (X.690 §10.1).
        case nonMinimalLength
        /// Indefinite length in DER (X.690 §10.1).
        case indefiniteLength
        /// Indefinite length on a primitive encoding (X.690 §8.1.3.2 a).
        case indefiniteLengthPrimitive
        /// The length octet 0xFF, reserved by X.690 §8.1.3.5 c.
        case reservedLength
        /// More length octets than fit in `Int`.
        case lengthOverflow
        /// The content would run past the end of the enclosing element or input.
        case lengthPastEnd
        /// An indefinite-length element has no end-of-contents before its container ends.
        case missingEndOfContents
        /// Nesting deeper than `ASN1Limits.maxDepth`.
        case tooDeep
        /// Bytes follow the last element where none may.
        case trailingBytes
        /// The element's tag is not the one the structure requires here.
        case unexpectedTag(expected: ASN1Tag, found: ASN1Tag)
        /// A constructed encoding of a type that is always primitive (BOOLEAN, INTEGER, NULL,
        /// OBJECT IDENTIFIER, …).
        case constructedPrimitiveType
        /// A primitive encoding of a type that is always constructed (SEQUENCE, SET, …).
        case primitiveConstructedType
        /// A constructed string or time in DER (X.690 §10.2).
        case constructedStringInDER
        /// A constructed encoding this reader does not support (constructed BIT STRING).
        case unsupportedConstructedEncoding
        /// SET OF elements out of order in DER (X.690 §11.6).
        case setNotSorted

        // Values (X.690 §8.2–8.23, §11)
        /// BOOLEAN content is not one octet, or (DER) not 00/FF (X.690 §8.2.1, §11.1).
        case invalidBoolean
        /// INTEGER content is empty (X.690 §8.3.1).
        case emptyInteger
        /// INTEGER with redundant leading 00 or FF octets (X.690 §8.3.2).
        case nonMinimalInteger
        /// The INTEGER does not fit the requested type.
        case integerOverflow
        /// A negative INTEGER where an unsigned value is required.
        case negativeInteger
        /// BIT STRING without an initial octet, unused bits above 7, unused bits on an empty
        /// string (X.690 §8.6.2), or (DER) non-zero unused bits (§11.2.1).
        case invalidBitString
        /// NULL with content (X.690 §8.8.2).
        case invalidNull
        /// OBJECT IDENTIFIER that is empty, truncated, or has a sub-identifier with a leading
        /// 0x80 octet (X.690 §8.19.2).
        case invalidObjectIdentifier
        /// A well-formed OBJECT IDENTIFIER other than the one the structure requires here.
        case unexpectedObjectIdentifier
        /// String bytes not allowed by the string type (or invalid UTF-8/UCS-2/UCS-4).
        case invalidString
        /// UTCTime or GeneralizedTime that is malformed, out of range, or (DER) not canonical
        /// (X.690 §11.7, §11.8).
        case invalidTime
    }

    /// `offset N: <reason>`.
    public var description: String { "offset \(offset): \(kind.reason)" }
}

extension ASN1Error.Kind {
    /// A short English reason, e.g. `non-minimal length encoding`.
    public var reason: String {
        switch self {
        case .truncated: return "input ends inside an element"
        case .nonMinimalTag: return "non-minimal tag encoding"
        case .tagNumberTooLarge: return "tag number too large"
        case .unexpectedEndOfContents: return "unexpected end-of-contents"
        case .nonMinimalLength: return "non-minimal length encoding"
        case .indefiniteLength: return "indefinite length is not allowed in DER"
        case .indefiniteLengthPrimitive: return "indefinite length on a primitive encoding"
        case .reservedLength: return "reserved length octet 0xFF"
        case .lengthOverflow: return "length does not fit in an integer"
        case .lengthPastEnd: return "length runs past the end of the input"
        case .missingEndOfContents: return "indefinite length without end-of-contents"
        case .tooDeep: return "nesting deeper than \(ASN1Limits.maxDepth)"
        case .trailingBytes: return "trailing bytes after the element"
        case .unexpectedTag(let expected, let found): return "expected tag \(expected), found \(found)"
        case .constructedPrimitiveType: return "constructed encoding of a primitive-only type"
        case .primitiveConstructedType: return "primitive encoding of a constructed-only type"
        case .constructedStringInDER: return "constructed string is not allowed in DER"
        case .unsupportedConstructedEncoding: return "constructed BIT STRING is not supported"
        case .setNotSorted: return "SET OF elements are not in DER order"
        case .invalidBoolean: return "invalid BOOLEAN"
        case .emptyInteger: return "empty INTEGER"
        case .nonMinimalInteger: return "non-minimal INTEGER encoding"
        case .integerOverflow: return "INTEGER too large"
        case .negativeInteger: return "negative INTEGER"
        case .invalidBitString: return "invalid BIT STRING"
        case .invalidNull: return "NULL with content"
        case .invalidObjectIdentifier: return "invalid OBJECT IDENTIFIER"
        case .unexpectedObjectIdentifier: return "unexpected OBJECT IDENTIFIER"
        case .invalidString: return "invalid characters for the string type"
        case .invalidTime: return "invalid time"
        }
    }
}
