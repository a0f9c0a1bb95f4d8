import Foundation
import Testing
import TestHelpers

/// One element line of `openssl asn1parse` (or of `receipt dump`, which follows its layout).
struct DumpLine: Equatable, CustomStringConvertible {
    let offset: Int
    let depth: Int
    let headerLength: Int
    let length: String   // digits or "inf"
    let constructed: Bool
    /// The tag name: what follows `cons: `/`prim: ` up to the value (`:…` or `[HEX DUMP]`).
    let name: String

    var description: String { "\(offset):d=\(depth) hl=\(headerLength) l=\(length) \(constructed ? "cons" : "prim"): \(name)" }

    static var pattern: Regex<AnyRegexOutput> {
        try! Regex(#"^\s*(\d+):d=(\d+)\s+hl=(\d+)\s+l=\s*(\d+|inf)\s+(cons|prim):\s?(.*)$"#)
    }

    /// The element lines of a dump; a line that is not one is returned in `stray`.
    static func parse(_ text: String) -> (lines: [DumpLine], stray: [String]) {
        var lines: [DumpLine] = []
        var stray: [String] = []
        let pattern = Self.pattern
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let match = raw.wholeMatch(of: pattern),
                let offset = match.output[1].substring.flatMap({ Int($0) }),
                let depth = match.output[2].substring.flatMap({ Int($0) }),
                let header = match.output[3].substring.flatMap({ Int($0) }),
                let length = match.output[4].substring, let form = match.output[5].substring,
                let rest = match.output[6].substring
            else {
                stray.append(String(raw))
                continue
            }
            var name = rest
            if let value = name.range(of: "[HEX DUMP]") { name = name[..<value.lowerBound] }
            if let colon = name.firstIndex(of: ":") { name = name[..<colon] }
            lines.append(
                DumpLine(
                    offset: offset, depth: depth, headerLength: header, length: String(length),
                    constructed: form == "cons", name: name.trimmingCharacters(in: .whitespaces)))
        }
        return (lines, stray)
    }
}

/// Runs `receipt dump` (optionally `--strict`) and `openssl asn1parse -inform DER` on one file and
/// compares them line for line: offset, depth, header length, length, form and tag name.
func compareWithOpenSSL(
    _ path: String, strict: Bool = false, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let ours = try Run.receipt(["dump", path] + (strict ? ["--strict"] : []))
    let theirs = try Run.openssl(["asn1parse", "-inform", "DER", "-in", path])
    #expect(theirs.status == 0, "openssl could not parse \(context)", sourceLocation: sourceLocation)
    compareDumps(ours, theirs.output, context, sourceLocation: sourceLocation)
}

/// Compares a `receipt dump` run with openssl's output for the same file.
func compareDumps(_ ours: RunResult, _ theirs: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectRun(ours, status: 0, context, sourceLocation: sourceLocation)
    let a = DumpLine.parse(ours.output)
    let b = DumpLine.parse(theirs)
    #expect(a.stray.isEmpty, "\(context): lines not in asn1parse's layout: \(a.stray.prefix(3))", sourceLocation: sourceLocation)
    #expect(!b.lines.isEmpty, "\(context): openssl printed nothing", sourceLocation: sourceLocation)
    #expect(a.lines.count == b.lines.count, "\(context): \(a.lines.count) lines, openssl \(b.lines.count)", sourceLocation: sourceLocation)
    for (index, (x, y)) in zip(a.lines, b.lines).enumerated() where x != y {
        Issue.record("\(context) line \(index + 1): \(x) — openssl: \(y)", sourceLocation: sourceLocation)
        break
    }
}

/// A value shared between threads behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// A minimal TLV encoder for crafted inputs.
func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
    if content.count < 0x80 { return [tag, UInt8(content.count)] + content }
    var length: [UInt8] = []
    var n = content.count
    while n > 0 { length.insert(UInt8(n & 0xFF), at: 0); n >>= 8 }
    return [tag, 0x80 | UInt8(length.count)] + length + content
}

@Suite(.enabled(if: Fixtures.shouldRun && Run.opensslAvailable))
struct DumpCommandTests {
    static let derFiles = [
        "receipts/production.der", "receipts/sandbox-g5.der", "receipts/sandbox-legacy.der",
        "certs/AppleIncRootCertificate.cer", "certs/AppleRootCA-G3.cer", "certs/StoreKitTestCertificate.cer",
    ]
    static let berFiles = ["receipts/xcode.der", "receipts/xcode-with-purchases.der"]

    @Test(arguments: derFiles + berFiles)
    func fixtureMatchesOpenSSL(_ file: String) throws {
        try compareWithOpenSSL(Fixtures.url(file).path, file)
    }

    @Test(arguments: derFiles)
    func strictAcceptsDER(_ file: String) throws {
        try compareWithOpenSSL(Fixtures.url(file).path, strict: true, "\(file) --strict")
    }

    @Test(arguments: berFiles)
    func strictRejectsIndefiniteLengths(_ file: String) throws {
        let result = try Run.receipt(["dump", Fixtures.url(file).path, "--strict"])
        expectRun(result, status: 2, errorContains: ["indefinite"], file)
        #expect(result.stderr.hasPrefix("offset 0:"), "the outermost SEQUENCE is indefinite: \(result.stderr)")
    }

    @Test(.enabled(if: Paths.examplesPresent), arguments: ["sample-receipt.der", "sample-root.der"])
    func exampleMatchesOpenSSL(_ name: String) throws {
        let path = Paths.examples.appendingPathComponent(name).path
        try compareWithOpenSSL(path, name)
        try compareWithOpenSSL(path, strict: true, "\(name) --strict")
    }

    /// Every certificate of the system's CA bundle, converted to DER by `openssl x509 -outform DER`,
    /// with and without `--strict`. openssl runs from one shell (two at a time); the dumps run on
    /// two threads; the comparison happens here.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/etc/ssl/certs")))
    func systemCertificatesMatchOpenSSL() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let names = try FileManager.default.contentsOfDirectory(atPath: "/etc/ssl/certs").filter { $0.hasSuffix(".pem") }.sorted()
        try #require(!names.isEmpty, "no certificates in /etc/ssl/certs")
        let openssl = try #require(Run.openssl)
        let tool = try #require(Run.tool)
        var list: [UInt8] = []
        for (index, name) in names.enumerated() {
            list += Array("/etc/ssl/certs/\(name)".utf8) + [0] + Array(directory.url.appendingPathComponent("\(index)").path.utf8) + [0]
        }
        let script = #"""
            "$0" x509 -in "$1" -outform DER -out "$2.der" 2>/dev/null && "$0" asn1parse -inform DER -in "$2.der" > "$2.asn1"
            """#
        let shell = try Run.program(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["xargs", "-0", "-n", "2", "-P", "2", "sh", "-c", script, openssl.path], stdin: list)
        #expect(shell.stderr.isEmpty, "\(shell.stderr)")

        let converted = names.indices.filter {
            FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("\($0).asn1").path)
        }
        #expect(converted.count > names.count / 2, "openssl converted \(converted.count) of \(names.count)")
        let results = Locked([Int: (RunResult, RunResult)]())
        let failures = Locked([String]())
        DispatchQueue.concurrentPerform(iterations: converted.count) { slot in
            let index = converted[slot]
            let der = directory.url.appendingPathComponent("\(index).der").path
            do {
                let plain = try Run.program(tool, ["dump", der])
                let strict = try Run.program(tool, ["dump", der, "--strict"])
                results.withLock { $0[index] = (plain, strict) }
            } catch {
                failures.withLock { $0.append("\(names[index]): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let all = results.withLock { $0 }
        for index in converted {
            guard let (plain, strict) = all[index] else { continue }
            let theirs = String(decoding: try Data(contentsOf: directory.url.appendingPathComponent("\(index).asn1")), as: UTF8.self)
            compareDumps(plain, theirs, names[index])
            compareDumps(strict, theirs, "\(names[index]) --strict")
        }
    }

    /// Every universal tag's name as openssl's `ASN1_tag2str` writes it, in valid encodings.
    @Test func universalTagNames() throws {
        var parts: [[UInt8]] = [
            tlv(0x01, [0xFF]), tlv(0x02, [0x05]), tlv(0x03, [0x00, 0x01]), tlv(0x04, [0x01]), tlv(0x05, []),
            tlv(0x06, [0x2A, 0x03]), tlv(0x07, Array("abc".utf8)), tlv(0x28, []), tlv(0x09, []), tlv(0x0A, [0x01]),
            tlv(0x0C, Array("abc".utf8)), tlv(0x0D, [0x01]), tlv(0x0E, [0x78]), tlv(0x0F, [0x78]),
            tlv(0x30, tlv(0x02, [0x01])), tlv(0x31, tlv(0x02, [0x01])),
            tlv(0x12, Array("123".utf8)), tlv(0x13, Array("abc".utf8)), tlv(0x14, Array("abc".utf8)),
            tlv(0x15, Array("abc".utf8)), tlv(0x16, Array("abc".utf8)), tlv(0x17, Array("240223172716Z".utf8)),
            tlv(0x18, Array("20240223172716Z".utf8)), tlv(0x19, Array("abc".utf8)), tlv(0x1A, Array("abc".utf8)),
            tlv(0x1B, Array("abc".utf8)), tlv(0x1C, [0, 0, 0, 0x61]), tlv(0x3D, []), tlv(0x1E, [0, 0x61]),
            [0x1F, 0x1F, 0x01, 0x00], [0x1F, 0x81, 0x00, 0x00], [0x3F, 0x82, 0x01, 0x00],
        ]
        // Other classes, low and high tag numbers, and indefinite lengths with their EOC lines.
        parts += [
            tlv(0x61, tlv(0x02, [0x05])), [0x9F, 0x1F, 0x01, 0x00], [0xDF, 0x22, 0x01, 0x00], [0x7F, 0x81, 0x00, 0x00],
            tlv(0xA0, []), tlv(0x80, [0x00]), tlv(0x40, []), tlv(0xC0, []),
            [0x30, 0x80, 0x02, 0x01, 0x01, 0x00, 0x00], [0x24, 0x80, 0x04, 0x01, 0x61, 0x00, 0x00],
            tlv(0x24, tlv(0x04, Array("ab".utf8))),
        ]
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("tags.der", contents: tlv(0x30, parts.flatMap { $0 }))
        try compareWithOpenSSL(file.path, "universal tags")
    }

    /// openssl names [UNIVERSAL 11] `<ASN1 11>` (its tag2str table has no EMBEDDED PDV entry).
    @Test func embeddedPDVName() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("pdv.der", contents: tlv(0x30, tlv(0x2B, [])))
        let theirs = DumpLine.parse(try Run.openssl(["asn1parse", "-inform", "DER", "-in", file.path]).output).lines
        let ours = DumpLine.parse(try Run.receipt(["dump", file.path]).output).lines
        #expect(theirs.last?.name == "<ASN1 11>")
        #expect(ours.last?.name == theirs.last?.name)
    }

    /// Concatenated elements: both are shown, like openssl; `--strict` wants exactly one.
    @Test func concatenatedElements() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let certificate = try Fixtures.bytes("certs/StoreKitTestCertificate.cer")
        let file = directory.file("two.der", contents: certificate + certificate)
        try compareWithOpenSSL(file.path, "two certificates")
        let strict = try Run.receipt(["dump", file.path, "--strict"])
        expectRun(strict, status: 2, errorContains: ["offset \(certificate.count)"], "trailing element under --strict")
    }

    /// A malformed element reports the offset of the element at fault.
    @Test func errorOffset() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // SEQUENCE { INTEGER 5, INTEGER claiming 5 bytes where 1 remains } — the second INTEGER (offset 5) is at fault.
        let file = directory.file("bad.der", contents: [0x30, 0x06, 0x02, 0x01, 0x05, 0x02, 0x05, 0x01])
        let theirs = try Run.openssl(["asn1parse", "-inform", "DER", "-in", file.path])
        #expect(theirs.status != 0, "openssl agrees the input is malformed")
        let result = try Run.receipt(["dump", file.path])
        expectRun(result, status: 2, file.lastPathComponent)
        #expect(result.stderr.hasPrefix("offset 5: "), "\(result.stderr)")
        let strict = try Run.receipt(["dump", file.path, "--strict"])
        expectRun(strict, status: 2)
        #expect(strict.stderr.hasPrefix("offset 5: "), "\(strict.stderr)")
    }

    @Test func truncatedFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = try Fixtures.bytes("receipts/production.der")
        for length in [1, 2, 3, 4, 100, 1000, bytes.count - 1] {
            let file = directory.file("truncated-\(length).der", contents: Array(bytes.prefix(length)))
            let theirs = try Run.openssl(["asn1parse", "-inform", "DER", "-in", file.path])
            #expect(theirs.status != 0, "openssl rejects \(length) bytes")
            let result = try Run.receipt(["dump", file.path])
            expectRun(result, status: 2, "\(length) bytes")
            let offset = result.stderr.wholeMatch(of: /offset (\d+): .*\n/).flatMap { Int($0.output.1) }
            #expect(offset.map { $0 < length } == true, "'offset N:' within the \(length) bytes read: \(result.stderr)")
        }
    }

    /// Hostile nesting ends with an error (the reader's depth limit), not a crash.
    @Test func deepNesting() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var nested: [UInt8] = [0x05, 0x00]
        for _ in 0 ..< 5000 { nested = tlv(0x30, nested) }
        let definite = directory.file("nested.der", contents: nested)
        expectRun(try Run.receipt(["dump", definite.path]), status: 2, errorContains: ["offset"])
        let indefinite = directory.file("indefinite.der", contents: Array(repeating: [0x30, 0x80], count: 5000).flatMap { $0 })
        expectRun(try Run.receipt(["dump", indefinite.path]), status: 2, errorContains: ["offset"])
        expectRun(try Run.receipt(["verify", indefinite.path]), status: 2)
    }

    /// FILE may be binary or base64 text; a DER file whose bytes all happen to be base64 characters
    /// is still binary DER (here [APPLICATION 1] with 50 octets of "A", 52 bytes in all).
    @Test func binaryThatLooksLikeBase64() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("appl.der", contents: [0x41, 0x32] + Array(repeating: 0x41, count: 50))
        let theirs = try Run.openssl(["asn1parse", "-inform", "DER", "-in", file.path])
        #expect(theirs.status == 0)
        let ours = try Run.receipt(["dump", file.path])
        compareDumps(ours, theirs.output, "appl [ 1 ] of base64 characters")
    }

    @Test func emptyInput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try Run.receipt(["dump", directory.file("empty.der", contents: []).path])
        expectRun(result, status: 2)
        #expect(result.stderr.hasPrefix("offset 0:"))
    }

    /// `--strict` rejects BER that is not DER beyond indefinite lengths (X.690 §10.1, §10.2).
    @Test func strictRejectsOtherBER() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cases: [(String, [UInt8])] = [
            ("non-minimal length", [0x30, 0x81, 0x03, 0x02, 0x01, 0x05]),
            ("constructed OCTET STRING", tlv(0x24, tlv(0x04, [0x61]))),
        ]
        for (name, bytes) in cases {
            let file = directory.file("case.der", contents: bytes)
            expectRun(try Run.receipt(["dump", file.path, "--strict"]), status: 2, name)
            expectRun(try Run.receipt(["dump", file.path]), status: 0, "\(name) is valid BER")
        }
    }

    /// DER also fixes BOOLEAN to 00/FF (X.690 §11.1) and INTEGERs to their minimal form (§8.3.2);
    /// DumpCommand documents that with `--strict` "anything that is not DER is an error".
    @Test func strictRejectsNonDERValues() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cases: [(String, [UInt8])] = [
            ("BOOLEAN 01", tlv(0x01, [0x01])),
            ("non-minimal INTEGER", tlv(0x02, [0x00, 0x05])),
        ]
        for (name, bytes) in cases {
            let file = directory.file("\(name).der", contents: bytes)
            expectRun(try Run.receipt(["dump", file.path]), status: 0, "\(name) is valid BER")
            let strict = try Run.receipt(["dump", file.path, "--strict"])
            expectRun(strict, status: 2, name)
        }
    }
}
