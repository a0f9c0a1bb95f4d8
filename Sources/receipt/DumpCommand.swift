import DER
import VerifyCommandCore

/// `receipt dump FILE [--strict]`: one line per element in `openssl asn1parse`'s layout,
/// `OFFSET:d=DEPTH hl=HEADERLEN l=LEN cons|prim: TAGNAME [:VALUE]`, with `l=inf` for indefinite
/// lengths and a `prim: EOC` line for each end-of-contents. Like openssl it does not descend into
/// the content of primitive elements (OCTET STRING, BIT STRING). Without `--strict` the input is
/// read as BER (and several concatenated elements are shown, as openssl does); with it, anything
/// that is not DER is an error, values included (BOOLEAN FF, minimal INTEGER, …).
enum DumpCommand {
    static func run(_ options: inout Options) throws {
        let path = try options.file()
        let strict = options.flag("--strict")
        try options.rejectUnknown()
        let bytes = try Input.read(path)
        guard !bytes.isEmpty else { throw ToolFailure(status: .malformed, message: "offset 0: empty input") }
        let rules: EncodingRules = strict ? .der : .ber
        do {
            try bytes.withRawBytes { (raw: UnsafeRawBufferPointer) throws(ASN1Error) in
                var reader = ASN1Reader(raw, rules: rules)
                if strict {
                    // DER: exactly one element.
                    var probe = reader
                    _ = try probe.readElement()
                    try probe.finish()
                }
                try reader.walk { (event: ASN1WalkEvent) throws(ASN1Error) in
                    // DER also fixes how each value is written (X.690 §11).
                    if strict, case .element(let element) = event { try element.checkUniversalValue() }
                    Output.write(line(event) + "\n")
                }
            }
        } catch {
            throw ToolFailure(status: .malformed, message: error.description)
        }
    }

    static func line(_ event: ASN1WalkEvent) -> String {
        switch event {
        case .element(let element):
            let length = element.isIndefiniteLength ? "l=inf  " : "l=\(pad(element.contentLength, 4)) "
            let form = element.tag.isConstructed ? "cons: " : "prim: "
            let name = tagName(element.tag).padding(18)
            let value = element.tag.isConstructed ? "" : ASN1ValueText.text(of: element)
            return "\(pad(element.offset, 5)):d=\(String(element.depth).padding(2)) hl=\(element.headerLength) \(length)\(form)\(name)\(value)"
        case .endOfContents(let offset, let depth):
            return "\(pad(offset, 5)):d=\(String(depth).padding(2)) hl=2 l=\(pad(0, 4)) prim: \("EOC".padding(18))"
        }
    }

    /// openssl's names (`ASN1_tag2str`, `asn1_print_info`).
    static func tagName(_ tag: ASN1Tag) -> String {
        switch tag.tagClass {
        case .contextSpecific: return "cont [ \(tag.number) ]"
        case .application: return "appl [ \(tag.number) ]"
        case .private: return "priv [ \(tag.number) ] "
        case .universal:
            let names = [
                "EOC", "BOOLEAN", "INTEGER", "BIT STRING", "OCTET STRING", "NULL", "OBJECT",
                "OBJECT DESCRIPTOR", "EXTERNAL", "REAL", "ENUMERATED", "<ASN1 11>", "UTF8STRING",
                "<ASN1 13>", "<ASN1 14>", "<ASN1 15>", "SEQUENCE", "SET", "NUMERICSTRING",
                "PRINTABLESTRING", "T61STRING", "VIDEOTEXSTRING", "IA5STRING", "UTCTIME",
                "GENERALIZEDTIME", "GRAPHICSTRING", "VISIBLESTRING", "GENERALSTRING",
                "UNIVERSALSTRING", "<ASN1 29>", "BMPSTRING",
            ]
            return tag.number < names.count ? names[Int(tag.number)] : "<ASN1 \(tag.number)>"
        }
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

extension String {
    /// Left-aligned in a field of `width` characters (`%-Ns`).
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
