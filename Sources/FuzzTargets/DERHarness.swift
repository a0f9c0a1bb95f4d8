import DER
import Foundation

/// `der`: walks any input under both rule sets and checks what the reader reports.
///
/// - Every element read lies inside the input and inside its parent's content; its content and
///   encoding views point where its offsets say; depth ≤ `ASN1Limits.maxDepth`; a failed read
///   consumes nothing and reports an offset between the read position and the enclosing end.
/// - `peekTag` agrees with `readElement`; the common-header fast path agrees with the general
///   decoder; `setOfChildren` (general path, DER order check) reads the same children as
///   `children` (fast path), or reports `setNotSorted` exactly where two encodings are out of
///   X.690 §11.6 order; `walk` reports the same elements and error as this walk.
/// - DER accepted ⇒ BER accepted with the identical walk; DER accepted ⇒ rebuilding every element
///   as identifier + minimal length + content (constructed ones recursively) gives the input byte
///   for byte. BER accepted ⇒ that rebuilding walks under BER to the same tree, and, without
///   constructed strings, is DER that rebuilds to itself.
/// - Primitive values: BOOLEAN, NULL, INTEGER, BIT STRING, OBJECT IDENTIFIER, strings and times
///   are accepted exactly when X.690 says (checked independently here) and, where DER makes the
///   encoding unique, re-encode with `DERWriter` to the same octets; DER-valid ⇒ BER-valid with the
///   same value. OCTET STRING contents are walked again as encapsulated encodings (two levels).
enum DERHarness {
    static let check = Checker(harness: "der")

    /// One element as the walk read it.
    struct Node: Equatable {
        var tag: ASN1Tag
        var offset: Int
        var headerLength: Int
        var contentLength: Int
        var isIndefinite: Bool
        var depth: Int
        /// Index just past this element's subtree in the pre-order list.
        var end = 0
    }

    /// What walking one reader gave: the elements in pre-order, and the error that stopped it.
    struct Walk {
        var nodes: [Node] = []
        var error: ASN1Error? = nil
    }

    static func check(_ input: UnsafeRawBufferPointer) throws(InvariantViolation) {
        let der = try walkInput(input, rules: .der)
        let ber = try walkInput(input, rules: .ber)

        if der.error == nil {
            try check.expect(ber.error == nil, "DER walk succeeded but BER failed: \(ber.error!)")
            try check.expect(der.nodes == ber.nodes, "DER and BER walks of DER input differ")
            let rebuilt = encode(der.nodes, input)
            try check.expect(rebuilt.elementsEqual(input), "DER input does not re-encode byte for byte")
        }
        if ber.error == nil && der.error != nil {
            // (For DER input the rebuilt encoding is the input itself, checked above.)
            try checkRebuiltBER(ber.nodes, input)
        }
        try checkParse(input)
    }

    // MARK: Walking

    /// Walks the whole input under `rules`, checking each element, then compares with `walk`.
    static func walkInput(_ input: UnsafeRawBufferPointer, rules: EncodingRules) throws(InvariantViolation) -> Walk {
        var walk = Walk()
        var reader = ASN1Reader(input, rules: rules)
        walk.error = try readAll(&reader, input: input, bounds: 0 ..< input.count, depth: 0, nesting: 0, into: &walk.nodes)
        if let error = walk.error { _ = error.description }
        try compareWithLibraryWalk(walk, input, rules: rules)
        return walk
    }

    /// Reads every element of `reader` depth-first into `nodes`, checking each. Returns the
    /// library's error when reading stopped early.
    static func readAll(
        _ reader: inout ASN1Reader, input: UnsafeRawBufferPointer, bounds: Range<Int>,
        depth: Int, nesting: Int, into nodes: inout [Node]
    ) throws(InvariantViolation) -> ASN1Error? {
        try check.expect(reader.depth == depth, "reader depth \(reader.depth), expected \(depth)")
        while !reader.isAtEnd {
            let start = reader.offset
            try check.expect(start >= bounds.lowerBound && start < bounds.upperBound, "reader position \(start) outside \(bounds)")
            try check.expect(reader.remainingCount == bounds.upperBound - start, "remainingCount disagrees with the bounds")
            let peeked = Result { () throws(ASN1Error) in try reader.peekTag() }
            let element: ASN1Element
            do {
                element = try reader.readElement()
            } catch {
                try check.expect(offset: error.offset, within: start ..< bounds.upperBound, "readElement at \(start)")
                try check.expect(reader.offset == start, "a failed read moved the reader")
                return error
            }
            guard case .success(let tag) = peeked, tag == element.tag else {
                throw check.fail("peekTag at \(start) gave \(peeked), readElement \(element.tag)")
            }
            try checkElement(element, reader: reader, input: input, start: start, bounds: bounds, depth: depth)
            let index = nodes.count
            nodes.append(
                Node(
                    tag: element.tag, offset: element.offset, headerLength: element.headerLength,
                    contentLength: element.contentLength, isIndefinite: element.isIndefiniteLength,
                    depth: element.depth))
            if element.tag.isConstructed {
                var children: ASN1Reader
                do {
                    children = try element.children()
                } catch {
                    throw check.fail("children() of a constructed element failed: \(error)")
                }
                if let error = try readAll(
                    &children, input: input, bounds: element.contentRange, depth: depth + 1,
                    nesting: nesting, into: &nodes)
                {
                    return error
                }
                try checkSetOfChildren(element, nodes: nodes, from: index + 1, input: input)
                try checkConstructedValue(element, input: input)
            } else {
                try checkPrimitive(element, input: input, nesting: nesting)
            }
            nodes[index].end = nodes.count
        }
        return nil
    }

    /// Where an element says it lies, against where the reader found it.
    static func checkElement(
        _ element: ASN1Element, reader: ASN1Reader, input: UnsafeRawBufferPointer,
        start: Int, bounds: Range<Int>, depth: Int
    ) throws(InvariantViolation) {
        try check.expect(element.offset == start, "element offset \(element.offset), read at \(start)")
        try check.expect(element.depth == depth, "element depth \(element.depth), expected \(depth)")
        try check.expect(depth <= ASN1Limits.maxDepth, "element at depth \(depth) past the limit")
        try check.expect(element.range, within: bounds, "element at \(start)")
        try check.expect(element.contentRange, within: element.range, "content of element at \(start)")
        try check.expect(reader.offset == element.range.upperBound, "reader did not move past the element at \(start)")
        try check.expect(element.headerLength >= 2 && element.headerLength <= 15, "header length \(element.headerLength)")
        try check.expect(element.contentOffset == start + element.headerLength, "content offset")
        try check.expect(element.contentLength >= 0, "negative content length")
        try check.expect(
            element.encodedLength == element.headerLength + element.contentLength + (element.isIndefiniteLength ? 2 : 0),
            "encoded length")
        if element.isIndefiniteLength {
            try check.expect(element.rules == .ber && element.tag.isConstructed, "indefinite length outside BER constructed")
            let eoc = element.contentRange.upperBound
            try check.expect(eoc + 2 <= input.count && input[eoc] == 0 && input[eoc + 1] == 0, "indefinite length not closed by 00 00 at \(eoc)")
        }
        let base = input.baseAddress
        try check.expect(
            element.content.baseAddress == base.map { $0 + element.contentOffset } && element.content.count == element.contentLength,
            "content view of element at \(start)")
        try check.expect(
            element.encoded.baseAddress == base.map { $0 + start } && element.encoded.count == element.encodedLength,
            "encoded view of element at \(start)")
        // Only the tag's identifier octets, never end-of-contents, begin an element.
        try check.expect(!(element.tag.tagClass == .universal && element.tag.number == 0), "end-of-contents returned as an element")
        // The common-form fast path, where it applies, must agree with the general decoder.
        if let base, let common = ASN1CommonHeader.decode(base, at: start, end: bounds.upperBound) {
            try check.expect(
                !element.isIndefiniteLength && common.contentStart == element.contentOffset
                    && common.contentEnd == element.contentRange.upperBound && common.identifier == input[start],
                "ASN1CommonHeader disagrees with the element at \(start)")
        }
        try check.expect(element.rules == reader.rules, "element rules differ from the reader's")
    }

    /// `setOfChildren` against `children`: the same elements (DER: the general path with the
    /// X.690 §11.6 order check), or `setNotSorted` exactly at the first pair out of order.
    static func checkSetOfChildren(_ element: ASN1Element, nodes: [Node], from first: Int, input: UnsafeRawBufferPointer) throws(InvariantViolation) {
        var ordered: ASN1Reader
        do {
            ordered = try element.setOfChildren()
        } catch {
            throw check.fail("setOfChildren() of a constructed element failed: \(error)")
        }
        var previous: Node? = nil
        // The direct children: each child's subtree is not yet closed (`end` is 0), so step over
        // deeper nodes by depth.
        for child in nodes[first...] where child.depth == element.depth + 1 {
            let read: ASN1Element
            do {
                read = try ordered.readElement()
            } catch {
                let outOfOrder = previous.map { compareZeroPadded(encoding(of: $0, input), encoding(of: child, input)) > 0 } ?? false
                try check.expect(
                    element.rules == .der && outOfOrder && error == ASN1Error(.setNotSorted, at: child.offset),
                    "setOfChildren failed at \(child.offset) with \(error)")
                return
            }
            try check.expect(
                read.offset == child.offset && read.tag == child.tag && read.headerLength == child.headerLength
                    && read.contentLength == child.contentLength && read.isIndefiniteLength == child.isIndefinite,
                "setOfChildren read a different element at \(child.offset)")
            if element.rules == .der, let previous {
                try check.expect(
                    compareZeroPadded(encoding(of: previous, input), encoding(of: child, input)) <= 0,
                    "DER SET OF out of order at \(child.offset) accepted")
            }
            previous = child
        }
        try check.expect(ordered.isAtEnd, "setOfChildren has elements left over")
    }

    /// `walk` must report the elements and error this walk found.
    static func compareWithLibraryWalk(_ walk: Walk, _ input: UnsafeRawBufferPointer, rules: EncodingRules) throws(InvariantViolation) {
        var elements: [Node] = []
        var endsOfContents: [(offset: Int, depth: Int)] = []
        var reader = ASN1Reader(input, rules: rules)
        var error: ASN1Error? = nil
        do {
            try reader.walk { event in
                switch event {
                case .element(let e):
                    elements.append(
                        Node(
                            tag: e.tag, offset: e.offset, headerLength: e.headerLength, contentLength: e.contentLength,
                            isIndefinite: e.isIndefiniteLength, depth: e.depth))
                case .endOfContents(let offset, let depth):
                    endsOfContents.append((offset, depth))
                }
            }
        } catch let caught {
            error = caught
        }
        try check.expect(error == walk.error, "walk() error \(String(describing: error)), expected \(String(describing: walk.error))")
        let mine = walk.nodes.map { node -> Node in
            var n = node; n.end = 0; return n
        }
        try check.expect(elements == mine, "walk() reported different elements")
        if error == nil {
            let indefinite = walk.nodes.filter(\.isIndefinite)
            try check.expect(endsOfContents.count == indefinite.count, "walk() end-of-contents count")
            for eoc in endsOfContents {
                try check.expect(
                    eoc.offset + 2 <= input.count && input[eoc.offset] == 0 && input[eoc.offset + 1] == 0,
                    "walk() end-of-contents at \(eoc.offset) is not 00 00")
                try check.expect(
                    indefinite.contains { $0.offset + $0.headerLength + $0.contentLength == eoc.offset && $0.depth + 1 == eoc.depth },
                    "walk() end-of-contents at \(eoc.offset) closes nothing")
            }
        }
    }

    // MARK: Re-encoding

    /// Identifier + minimal length + content for `nodes[range]` (siblings and their subtrees).
    static func encode(_ nodes: [Node], _ input: UnsafeRawBufferPointer, _ range: Range<Int>? = nil) -> [UInt8] {
        var out: [UInt8] = []
        var index = range?.lowerBound ?? 0
        let end = range?.upperBound ?? nodes.count
        while index < end {
            let node = nodes[index]
            DERWriter.appendIdentifier(node.tag, to: &out)
            if node.tag.isConstructed {
                let inner = encode(nodes, input, index + 1 ..< node.end)
                DERWriter.appendLength(inner.count, to: &out)
                out += inner
            } else {
                DERWriter.appendLength(node.contentLength, to: &out)
                let start = node.offset + node.headerLength
                out += UnsafeRawBufferPointer(rebasing: input[start ..< start + node.contentLength])
            }
            index = node.end
        }
        return out
    }

    /// A BER input rebuilt with definite minimal lengths has the same tree; without constructed
    /// strings it is DER, and rebuilding it again changes nothing.
    static func checkRebuiltBER(_ nodes: [Node], _ input: UnsafeRawBufferPointer) throws(InvariantViolation) {
        let rebuilt = encode(nodes, input)
        let result: Result<Void, InvariantViolation> = rebuilt.withUnsafeBytes { raw in
            Result { () throws(InvariantViolation) in
                var again: [Node] = []
                var reader = ASN1Reader(raw, rules: .ber)
                let error = try readAll(&reader, input: raw, bounds: 0 ..< raw.count, depth: 0, nesting: 2, into: &again)
                try check.expect(error == nil, "BER input rebuilt with definite lengths does not read back: \(error!)")
                try check.expect(shape(again, raw) == shape(nodes, input), "BER input rebuilt with definite lengths reads as another tree")
                let hasConstructedString = nodes.contains { $0.tag.isConstructed && $0.tag.tagClass == .universal && isStringType($0.tag.number) }
                guard !hasConstructedString else { return }
                var strict: [Node] = []
                var derReader = ASN1Reader(raw, rules: .der)
                let derError = try readAll(&derReader, input: raw, bounds: 0 ..< raw.count, depth: 0, nesting: 2, into: &strict)
                try check.expect(derError == nil, "BER input rebuilt as DER is not DER: \(derError!)")
                try check.expect(encode(strict, raw) == rebuilt, "DER rebuilt from BER does not re-encode to itself")
            }
        }
        try result.get()
    }

    /// Tag, depth, subtree extent and primitive content of each node: what survives re-encoding.
    static func shape(_ nodes: [Node], _ input: UnsafeRawBufferPointer) -> [[UInt8]] {
        nodes.enumerated().map { index, node in
            var key: [UInt8] = []
            withUnsafeBytes(of: node.tag.rawValue) { key += $0 }
            key += [UInt8(truncatingIfNeeded: node.depth)]
            withUnsafeBytes(of: node.end - index) { key += $0 }
            if !node.tag.isConstructed {
                let start = node.offset + node.headerLength
                key += UnsafeRawBufferPointer(rebasing: input[start ..< start + node.contentLength])
            }
            return key
        }
    }

    /// The universal string and time types BER may encode constructed (X.690 §8.23.6): BIT STRING,
    /// OCTET STRING, UTF8String, 18–28 (NumericString … UniversalString, UTCTime, GeneralizedTime)
    /// and BMPString. 29, CHARACTER STRING, is a SEQUENCE in disguise (always constructed).
    static func isStringType(_ number: UInt32) -> Bool {
        number == 3 || number == 4 || number == 12 || (18 ... 28).contains(number) || number == 30
    }

    /// An element's whole encoding.
    static func encoding(of node: Node, _ input: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let count = node.headerLength + node.contentLength + (node.isIndefinite ? 2 : 0)
        return UnsafeRawBufferPointer(rebasing: input[node.offset ..< node.offset + count])
    }

    /// X.690 §11.6: encodings compared as octet strings, the shorter padded with zero octets.
    static func compareZeroPadded(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        for i in 0 ..< max(a.count, b.count) {
            let x = i < a.count ? a[i] : 0, y = i < b.count ? b[i] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    /// `storage[range]`, which the library accepted as strict DER, is DER throughout: every
    /// element, nested ones included, and it rebuilds to the same bytes. Offsets are the storage's.
    static func checkStrictDER(_ storage: [UInt8], _ range: Range<Int>, _ what: String, check: Checker) throws(InvariantViolation) {
        let result: Result<Void, InvariantViolation> = storage.withUnsafeBytes { raw in
            Result { () throws(InvariantViolation) in
                var nodes: [Node] = []
                var reader = ASN1Reader(UnsafeRawBufferPointer(rebasing: raw[range]), rules: .der, baseOffset: range.lowerBound)
                if let error = try readAll(&reader, input: raw, bounds: range, depth: 0, nesting: 2, into: &nodes) {
                    throw check.fail("\(what) accepted but not DER throughout: \(error)")
                }
                try check.expect(encode(nodes, raw).elementsEqual(raw[range]), "\(what) accepted but does not re-encode byte for byte")
            }
        }
        try result.get()
    }

    /// `ASN1Reader.parse` accepts exactly one element and nothing after it.
    static func checkParse(_ input: UnsafeRawBufferPointer) throws(InvariantViolation) {
        for rules in [EncodingRules.der, .ber] {
            var reader = ASN1Reader(input, rules: rules)
            let first = try? reader.readElement()
            let single = first != nil && reader.isAtEnd
            let parsed = try? ASN1Reader.parse(Array(input), rules: rules) { (r: inout ASN1Reader) throws(ASN1Error) in try r.readElement().range }
            try check.expect(
                (parsed != nil) == single && (parsed == nil || parsed == first?.range),
                "ASN1Reader.parse disagrees with readElement + finish (\(rules))")
            // readOptional with another tag consumes nothing.
            var optional = ASN1Reader(input, rules: rules)
            if let tag = first?.tag {
                let other = tag == .null ? ASN1Tag.boolean : ASN1Tag.null
                let none = try? optional.readOptional(other)
                try check.expect(none == nil, "readOptional returned an element of another tag")
                try check.expect(optional.offset == 0, "readOptional of another tag consumed input")
                let same = try? optional.readOptional(tag)
                try check.expect(same?.range == first?.range, "readOptional of the next tag read something else")
            }
        }
    }
}

// MARK: Values

extension DERHarness {
    /// Constructed strings (BER): the segments join up inside the element.
    static func checkConstructedValue(_ element: ASN1Element, input: UnsafeRawBufferPointer) throws(InvariantViolation) {
        guard element.tag.tagClass == .universal, isStringType(element.tag.number), element.tag.number != 3 else { return }
        try check.expect(element.rules == .ber, "constructed string \(element.tag) at \(element.offset) accepted under DER")
        guard let string = try? element.octetStringValue() else { return }
        try check.expect(string.contiguousBytes == nil && string.contiguousRange == nil, "constructed string claims to be contiguous")
        var total = 0
        var inside = true
        let base = input.baseAddress!
        try? string.forEachSegment { segment in
            total += segment.count
            if segment.count > 0, let start = segment.baseAddress {
                let offset = start - base
                inside = inside && element.contentRange.contains(offset) && offset + segment.count <= element.contentRange.upperBound
            }
        }
        try check.expect(inside, "a segment of the constructed string at \(element.offset) lies outside it")
        try check.expect(total == string.count, "segments add up to \(total), count is \(string.count)")
        guard let joined = try? string.copyBytes() else { throw check.fail("copyBytes failed after octetStringValue succeeded") }
        try check.expect(joined.count == string.count, "copyBytes count")
        if let kind = ASN1StringKind(tag: element.tag) {
            let text = try? element.stringValue(kind)
            let expected = joined.withUnsafeBytes { kind.decode($0) }
            try check.expect(text == expected, "stringValue of a constructed \(kind) string disagrees with decoding its segments")
        }
    }

    /// Every primitive universal value read, and checked against X.690 independently.
    static func checkPrimitive(_ element: ASN1Element, input: UnsafeRawBufferPointer, nesting: Int) throws(InvariantViolation) {
        let content = element.content
        let count = content.count
        let der = element.rules == .der
        let at = element.offset
        switch element.tag {
        case .boolean:
            let value = try? element.boolValue()
            let valid = count == 1 && (!der || content[0] == 0 || content[0] == 0xFF)
            try check.expect((value != nil) == valid, "BOOLEAN at \(at) accepted: \(value != nil), expected \(valid)")
            if let value { try check.expect(value == (content[0] != 0), "BOOLEAN value") }
        case .null:
            let valid = (try? element.nullValue()) != nil
            try check.expect(valid == (count == 0), "NULL at \(at) with \(count) content octets accepted: \(valid)")
        case .integer, ASN1Tag(.universal, number: 10, constructed: false):
            try checkInteger(element, content)
        case .bitString:
            let bits = try? element.bitStringValue()
            var valid = count >= 1 && content[0] <= 7 && !(count == 1 && content[0] != 0)
            if valid && der && content[0] != 0 { valid = content[count - 1] & UInt8((1 << content[0]) - 1) == 0 }
            try check.expect((bits != nil) == valid, "BIT STRING at \(at) accepted: \(bits != nil), expected \(valid)")
            if let bits {
                try check.expect(bits.bytes.count == count - 1 && bits.unusedBitCount == Int(content[0]), "BIT STRING fields")
                try check.expect(!bits.bit(-1) && !bits.bit(bits.bytes.count * 8 - bits.unusedBitCount), "BIT STRING bit past the end")
            }
        case .octetString:
            guard let string = try? element.octetStringValue() else { throw check.fail("primitive OCTET STRING at \(at) rejected") }
            try check.expect(
                string.count == count && string.contiguousRange == element.contentRange
                    && string.contiguousBytes?.baseAddress == content.baseAddress, "OCTET STRING view")
            try checkEncapsulated(element, input: input, nesting: nesting)
        case .objectIdentifier:
            try checkObjectIdentifier(element, content)
        case .utcTime, .generalizedTime:
            try checkTime(element, content)
        default:
            if let kind = ASN1StringKind(tag: element.tag) { try checkString(element, kind, content) }
        }
        // DER-valid ⇒ BER-valid with the same value.
        if !der, element.tag.tagClass == .universal {
            var strict = element.reread(rules: .der)
            if let same = try? strict.readElement() {
                switch element.tag {
                case .boolean:
                    if let d = try? same.boolValue() { try check.expect((try? element.boolValue()) == d, "BOOLEAN: DER and BER disagree") }
                case .bitString:
                    if let d = try? same.bitStringValue() {
                        try check.expect((try? element.bitStringValue())?.unusedBitCount == d.unusedBitCount, "BIT STRING: DER and BER disagree")
                    }
                case .utcTime, .generalizedTime:
                    if let d = try? same.timeValue() { try check.expect((try? element.timeValue()) == d, "time: DER and BER disagree") }
                default: break
                }
            }
        }
    }

    static func checkInteger(_ element: ASN1Element, _ content: UnsafeRawBufferPointer) throws(InvariantViolation) {
        let count = content.count
        let minimal = count >= 1 && !(count > 1 && ((content[0] == 0 && content[1] & 0x80 == 0) || (content[0] == 0xFF && content[1] & 0x80 != 0)))
        let bytes = try? element.integerBytes()
        try check.expect((bytes != nil) == minimal, "INTEGER at \(element.offset) accepted: \(bytes != nil), minimal: \(minimal)")
        let signed = try? element.int64Value()
        let unsigned = try? element.uint64Value()
        let shortcut = asn1Int64(content: content)
        try check.expect(signed == shortcut, "asn1Int64 disagrees with int64Value")
        guard minimal else {
            try check.expect(signed == nil && unsigned == nil, "non-minimal INTEGER read as a number")
            return
        }
        let negative = content[0] & 0x80 != 0
        let magnitude = content[0] == 0 && count > 1 ? count - 1 : count
        try check.expect((signed != nil) == (count <= 8), "INTEGER of \(count) octets as Int64: \(String(describing: signed))")
        try check.expect((unsigned != nil) == (!negative && magnitude <= 8), "INTEGER of \(count) octets as UInt64: \(String(describing: unsigned))")
        if let signed {
            var writer = DERWriter()
            writer.appendInteger(signed)
            try check.expect(writer.bytes.dropFirst(2).elementsEqual(content), "INTEGER \(signed) re-encodes differently")
            if let unsigned { try check.expect(signed >= 0 && UInt64(signed) == unsigned, "Int64 and UInt64 values differ") }
        }
        if !negative, let magnitudeBytes = try? element.unsignedIntegerBytes() {
            try check.expect(magnitudeBytes.elementsEqual(content.suffix(magnitude)), "unsignedIntegerBytes")
        } else {
            try check.expect(negative, "unsignedIntegerBytes rejected a non-negative INTEGER")
        }
    }

    static func checkObjectIdentifier(_ element: ASN1Element, _ content: UnsafeRawBufferPointer) throws(InvariantViolation) {
        var valid = !content.isEmpty && content[content.count - 1] & 0x80 == 0
        var startsArc = true
        var fits = true
        var value: UInt64 = 0
        for byte in content {
            if startsArc && byte == 0x80 { valid = false }
            if value >> 57 != 0 { fits = false }
            value = value << 7 | UInt64(byte & 0x7F)
            startsArc = byte & 0x80 == 0
            if startsArc { value = 0 }
        }
        let bytes = try? element.objectIdentifierBytes()
        try check.expect((bytes != nil) == valid, "OBJECT IDENTIFIER at \(element.offset) accepted: \(bytes != nil), expected \(valid)")
        guard valid, let oid = try? element.objectIdentifierValue() else { return }
        try check.expect(oid.matches(content) && oid.encodedContent.elementsEqual(content), "OBJECT IDENTIFIER value")
        // Dotted text and back (costly: each distinct identifier once per process).
        guard !checkedIdentifiers.contains(oid) else { return }
        if checkedIdentifiers.count > 10_000 { checkedIdentifiers.removeAll() }
        checkedIdentifiers.insert(oid)
        let dotted = oid.description
        let parsed = ASN1ObjectIdentifier(dotted: dotted)
        if fits {
            try check.expect(parsed?.encodedContent.elementsEqual(content) == true, "OBJECT IDENTIFIER \(dotted) does not round-trip")
        }
    }

    /// Identifiers whose dotted round trip has been checked (the fuzzer runs one input at a time;
    /// tests may run harnesses concurrently, hence the lock).
    nonisolated(unsafe) static var checkedIdentifierSet: Set<ASN1ObjectIdentifier> = []
    static let checkedIdentifierLock = NSLock()
    static var checkedIdentifiers: Set<ASN1ObjectIdentifier> {
        get { checkedIdentifierLock.withLock { checkedIdentifierSet } }
        set { checkedIdentifierLock.withLock { checkedIdentifierSet = newValue } }
    }

    static func checkString(_ element: ASN1Element, _ kind: ASN1StringKind, _ content: UnsafeRawBufferPointer) throws(InvariantViolation) {
        let decoded = kind.decode(content)
        let value = try? element.stringValue(kind)
        try check.expect(value == decoded, "\(kind) string at \(element.offset): stringValue disagrees with decode")
        try check.expect(kind.isValid(content) == (decoded != nil), "\(kind) isValid disagrees with decode")
        guard let decoded else { return }
        switch kind {
        case .utf8, .ia5, .visible, .numeric, .printable:
            try check.expect(decoded.utf8.elementsEqual(content), "\(kind) string does not round-trip")
        case .t61:
            try check.expect(decoded.unicodeScalars.count == content.count, "T61String length")
        case .bmp:
            try check.expect(content.count % 2 == 0, "BMPString of odd length accepted")
        case .universal:
            try check.expect(content.count % 4 == 0, "UniversalString length not a multiple of 4 accepted")
        }
    }

    static func checkTime(_ element: ASN1Element, _ content: UnsafeRawBufferPointer) throws(InvariantViolation) {
        let isUTC = element.tag == .utcTime
        let seconds = try? (isUTC ? element.utcTimeValue() : element.generalizedTimeValue())
        try check.expect((try? element.timeValue()) == seconds, "timeValue disagrees")
        guard let seconds else { return }
        // DER times have one form; without a fraction the writer produces it.
        if element.rules == .der && !content.contains(0x2E) {
            var writer = DERWriter()
            if isUTC { writer.appendUTCTime(seconds) } else { writer.appendGeneralizedTime(seconds) }
            try check.expect(
                writer.bytes.dropFirst(2).elementsEqual(content),
                "DER time at \(element.offset) re-encodes as \(String(decoding: writer.bytes.dropFirst(2), as: UTF8.self))")
        }
    }

    /// OCTET STRING content walked as an encoding of its own (as extension values and receipt
    /// attribute values are), up to two levels deep.
    static func checkEncapsulated(_ element: ASN1Element, input: UnsafeRawBufferPointer, nesting: Int) throws(InvariantViolation) {
        guard nesting < 2, element.contentLength > 0 else { return }
        var reader: ASN1Reader
        do {
            reader = try element.encapsulated(rules: element.rules)
        } catch {
            return   // depth limit
        }
        var nodes: [Node] = []
        let error = try readAll(
            &reader, input: input, bounds: element.contentRange, depth: element.depth + 1,
            nesting: nesting + 1, into: &nodes)
        if error == nil && element.rules == .der {
            try check.expect(encode(nodes, input).elementsEqual(element.content), "encapsulated DER does not re-encode byte for byte")
        }
    }
}
