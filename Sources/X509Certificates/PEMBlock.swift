/// The first PEM block of a text (RFC 7468 §2): `-----BEGIN label-----`, base64 lines,
/// `-----END label-----` with the same label. Text before, between and after blocks is ignored
/// (OpenSSL's `EC PARAMETERS` block before an `EC PRIVATE KEY` is skipped by asking for a label).
struct PEMBlock {
    /// The label between `BEGIN ` and the dashes, e.g. `PRIVATE KEY`.
    let label: String
    /// The base64 body with every whitespace byte removed (still encoded).
    let body: [UInt8]

    static let dashes = Array("-----".utf8)

    /// Every block of `text`, in order; empty when there is none.
    static func blocks(in text: [UInt8]) -> [PEMBlock] {
        var result: [PEMBlock] = []
        var position = 0
        let begin = Array("-----BEGIN ".utf8)
        while let start = find(begin, in: text, from: position) {
            let labelStart = start + begin.count
            guard let labelEnd = find(dashes, in: text, from: labelStart) else { break }
            let label = Array(text[labelStart ..< labelEnd])
            let end = Array("-----END ".utf8) + label + dashes
            let bodyStart = labelEnd + dashes.count
            guard let bodyEnd = find(end, in: text, from: bodyStart) else { break }
            let body = text[bodyStart ..< bodyEnd].filter { !isWhitespace($0) }
            result.append(PEMBlock(label: String(decoding: label, as: UTF8.self), body: body))
            position = bodyEnd + end.count
        }
        return result
    }

    /// Space, tab, CR, LF (RFC 7468 §3 allows whitespace between the base64 lines).
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0d || byte == 0x0a
    }

    /// The offset of the first occurrence of `pattern` at or after `start`.
    private static func find(_ pattern: [UInt8], in text: [UInt8], from start: Int) -> Int? {
        guard pattern.count <= text.count else { return nil }
        var index = start
        while index + pattern.count <= text.count {
            if text[index ..< index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}
