/// The identifier and length octets of one element (X.690 §8.1.2–8.1.3).
@usableFromInline
struct ASN1Header {
    @usableFromInline var tag: ASN1Tag
    /// Identifier plus length octets.
    @usableFromInline var headerLength: Int
    /// Content length, or `nil` for the indefinite form.
    @usableFromInline var contentLength: Int?

    @inlinable
    init(tag: ASN1Tag, headerLength: Int, contentLength: Int?) {
        self.tag = tag
        self.headerLength = headerLength
        self.contentLength = contentLength
    }
}

extension ASN1Header {
    /// Decodes the header at input offset `start` (`bytes` points at offset 0), whose content
    /// must end by `limit`.
    ///
    /// One decoder for both rule sets: `rules` decides only what DER forbids. Errors use the
    /// element's first byte as their position. Does not accept end-of-contents: callers that
    /// allow it check for `00 00` first.
    @usableFromInline
    static func decode(
        _ bytes: UnsafeRawPointer, at start: Int, limit: Int, rules: EncodingRules
    ) throws(ASN1Error) -> ASN1Header {
        @inline(__always) func fail(_ kind: ASN1Error.Kind) -> ASN1Error { ASN1Error(kind, at: start) }

        guard start < limit else { throw fail(.truncated) }
        var index = start
        let first = bytes.load(fromByteOffset: index, as: UInt8.self)
        index += 1

        // Identifier octets (X.690 §8.1.2).
        var tag = ASN1Tag(identifierOctet: first)
        if first & 0x1F == 0x1F {
            // High-tag-number form (§8.1.2.4): base-128, first subsequent octet not 0x80.
            var number: UInt32 = 0
            var isFirst = true
            while true {
                guard index < limit else { throw fail(.truncated) }
                let octet = bytes.load(fromByteOffset: index, as: UInt8.self)
                index += 1
                if isFirst && octet == 0x80 { throw fail(.nonMinimalTag) }
                isFirst = false
                guard number <= ASN1Tag.maxNumber >> 7 else { throw fail(.tagNumberTooLarge) }
                number = number << 7 | UInt32(octet & 0x7F)
                if octet & 0x80 == 0 { break }
            }
            // Numbers 0–30 must use the low-tag-number form (§8.1.2.2).
            if number < 31 { throw fail(.nonMinimalTag) }
            tag = ASN1Tag(rawValue: tag.rawValue & ~ASN1Tag.maxNumber | number)
        }
        if tag.tagClass == .universal && tag.number == 0 { throw fail(.unexpectedEndOfContents) }
        let constructed = tag.isConstructed

        // Length octets (X.690 §8.1.3).
        guard index < limit else { throw fail(.truncated) }
        let lengthOctet = bytes.load(fromByteOffset: index, as: UInt8.self)
        index += 1
        var length: Int? = nil
        if lengthOctet < 0x80 {
            length = Int(lengthOctet)
        } else if lengthOctet == 0x80 {
            // Indefinite form (§8.1.3.6): BER only, constructed only.
            guard rules == .ber else { throw fail(.indefiniteLength) }
            guard constructed else { throw fail(.indefiniteLengthPrimitive) }
        } else if lengthOctet == 0xFF {
            throw fail(.reservedLength)
        } else {
            // At most 8 octets and below 2^63 on every platform (not Int's width: a 32-bit
            // platform gives the same verdict, the length past the end of any input it holds).
            let count = Int(lengthOctet & 0x7F)
            guard count <= 8 else { throw fail(.lengthOverflow) }
            guard limit - index >= count else { throw fail(.truncated) }
            var value: UInt64 = 0
            for i in 0 ..< count { value = value << 8 | UInt64(bytes.load(fromByteOffset: index + i, as: UInt8.self)) }
            if rules == .der {
                // DER: the fewest octets, and the short form below 128 (§10.1).
                if bytes.load(fromByteOffset: index, as: UInt8.self) == 0 || value < 0x80 { throw fail(.nonMinimalLength) }
            }
            index += count
            guard value <= UInt64(Int64.max) else { throw fail(.lengthOverflow) }
            guard value <= UInt64(limit - index) else { throw fail(.lengthPastEnd) }
            length = Int(value)
        }
        if let length, length > limit - index { throw fail(.lengthPastEnd) }

        // Universal types with a fixed form.
        if let kind = tag.formError(rules: rules) { throw fail(kind) }

        return ASN1Header(tag: tag, headerLength: index - start, contentLength: length)
    }

    /// True when the bytes at `index` are the end-of-contents octets `00 00` (X.690 §8.1.5).
    @inlinable
    static func isEndOfContents(_ bytes: UnsafeRawPointer, at index: Int, limit: Int) -> Bool {
        limit - index >= 2 && bytes.load(fromByteOffset: index, as: UInt8.self) == 0 && bytes.load(fromByteOffset: index + 1, as: UInt8.self) == 0
    }

    /// Finds the end-of-contents that closes an indefinite-length element whose content starts at
    /// `contentStart`; returns the index of its first `00`.
    ///
    /// Skips children in place, without recursion: definite children by their length, indefinite
    /// ones by counting how many are still open. `depth` is the element's own depth; no element
    /// inside may lie deeper than `ASN1Limits.maxDepth`.
    @usableFromInline
    static func findEndOfContents(
        _ bytes: UnsafeRawPointer, elementStart: Int, contentStart: Int, limit: Int, depth: Int
    ) throws(ASN1Error) -> Int {
        var index = contentStart
        var open = 1
        while true {
            guard index < limit else { throw ASN1Error(.missingEndOfContents, at: elementStart) }
            if bytes.load(fromByteOffset: index, as: UInt8.self) == 0 {
                // Tag [UNIVERSAL 0]: only `00 00` is valid, and only here (§8.1.5).
                guard isEndOfContents(bytes, at: index, limit: limit) else {
                    throw ASN1Error(.unexpectedEndOfContents, at: index)
                }
                open -= 1
                if open == 0 { return index }
                index += 2
                continue
            }
            // The element starting here lies at depth + open.
            if depth + open > ASN1Limits.maxDepth { throw ASN1Error(.tooDeep, at: index) }
            let header = try decode(bytes, at: index, limit: limit, rules: .ber)
            if let length = header.contentLength {
                index += header.headerLength + length
            } else {
                open += 1
                index += header.headerLength
            }
        }
    }
}
