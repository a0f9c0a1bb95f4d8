import CryptoPrimitives
import DER
import Foundation
import PKCS7
import X509Certificates
import ReceiptTestSupport

// Shared helpers for the PKCS7 tests: times, the synthetic chain (signed once), and small DER
// tools to take an encoding apart and put it back together with one field changed.

/// Seconds since 1970 for a UTC civil time.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Int64 {
    CivilTime.secondsSince1970(.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
}

/// The display text `DistinguishedName` gives a TestCertificate's subject (C, O, CN in order).
func describe(_ certificate: TestCertificate) -> String {
    DistinguishedName.describe(certificate.subjectName)
}

/// The synthetic App-Store-shaped chain of `TestChain()`, signed once and shared by the tests
/// (RSA signing is slow in debug builds).
enum Synthetic {
    static let chain = TestChain()
    static let rootDER: [UInt8] = chain.rootCertificate
    static let intermediateDER: [UInt8] = chain.intermediate.signed(by: chain.root)
    static let leafDER: [UInt8] = chain.leaf.signed(by: chain.intermediate)
    static let anchor: TrustAnchor = try! TrustAnchor(derEncoded: rootDER)
    /// The App Store rules anchored at the synthetic root.
    static let policy: TrustPolicy = .appStore(anchors: [anchor])
    /// The same anchor with no Apple-specific rules and any number of intermediates.
    static let plainPolicy: TrustPolicy = .custom(anchors: [anchor])
    static let payload: [UInt8] = TestReceipt().payload()
    /// Inside every default validity (2015…2045).
    static let time: Int64 = utc(2024, 3, 1)

    /// The default receipt (DER, rsaEncryption, SHA-256, no signed attributes).
    static let receiptBytes: [UInt8] = receipt().encoded()
    static let receipt: SignedData = try! SignedData(berEncoded: receiptBytes)

    /// A SignedData description signed by `signer` (the leaf by default), carrying `certificates`
    /// (leaf, intermediate, root by default).
    static func receipt(signer: TestCertificate = chain.leaf, issuerName: [UInt8]? = nil,
                        certificates: [[UInt8]]? = nil, digest: HashAlgorithm = .sha256,
                        signatureAlgorithm: TestSignedData.SignatureAlgorithmChoice = .rsaEncryption,
                        signedAttributes: Bool = false, berSegmentSize: Int? = nil) -> TestSignedData {
        TestSignedData(content: payload, signer: signer, signerIssuerName: issuerName ?? chain.intermediate.subjectName,
                       certificates: certificates ?? [leafDER, intermediateDER, rootDER], digest: digest,
                       signatureAlgorithm: signatureAlgorithm, signedAttributes: signedAttributes,
                       berSegmentSize: berSegmentSize)
    }

    /// Verifies `data` (encoded and parsed) under `policy` at `time`.
    @discardableResult
    static func verify(_ data: TestSignedData, policy: TrustPolicy = policy, at time: Int64 = time,
                       linkStore: (any VerifiedLinkStore)? = nil) throws -> VerifiedSignature {
        let signedData = try SignedData(berEncoded: data.encoded())
        return try SignedDataVerifier(policy: policy, linkStore: linkStore).verify(signedData, at: time)
    }
}

/// DER surgery on test encodings.
enum DERParts {
    /// The encoded children of the constructed element that fills `bytes`.
    static func children(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.withUnsafeBytes { raw in
            var outer = ASN1Reader(raw, rules: .ber)
            let element = try! outer.readElement()
            var reader = try! element.children()
            var parts: [[UInt8]] = []
            while !reader.isAtEnd {
                let child = try! reader.readElement()
                parts.append(Array(bytes[child.range]))
            }
            return parts
        }
    }

    /// The header tag octet of an encoding.
    static func tagByte(_ bytes: [UInt8]) -> UInt8 { bytes[0] }

    /// Re-encodes `parts` under the identifier octet `tag` (a low tag number), DER length.
    static func wrap(_ tag: UInt8, _ parts: [[UInt8]]) -> [UInt8] {
        let content = parts.flatMap { $0 }
        var out: [UInt8] = [tag]
        DERWriter.appendLength(content.count, to: &out)
        return out + content
    }

    /// `bytes` (a constructed element) with child `index` replaced.
    static func replacingChild(_ index: Int, of bytes: [UInt8], with replacement: [UInt8]) -> [UInt8] {
        var parts = children(bytes)
        parts[index] = replacement
        return wrap(tagByte(bytes), parts)
    }

    /// `bytes` with the element at `path` (child indices from the outermost element) replaced by
    /// `transform` of it; every enclosing length is recomputed.
    static func editing(_ bytes: [UInt8], at path: [Int], _ transform: ([UInt8]) -> [UInt8]) -> [UInt8] {
        guard let first = path.first else { return transform(bytes) }
        var parts = children(bytes)
        parts[first] = editing(parts[first], at: Array(path.dropFirst()), transform)
        return wrap(tagByte(bytes), parts)
    }

    /// The element at `path`.
    static func element(_ bytes: [UInt8], at path: [Int]) -> [UInt8] {
        path.reduce(bytes) { children($0)[$1] }
    }

    static func encode(_ body: (inout DERWriter) -> Void) -> [UInt8] {
        var writer = DERWriter()
        body(&writer)
        return writer.bytes
    }

    /// One Extension ::= SEQUENCE { extnID, critical BOOLEAN (written as given, even FALSE), extnValue }.
    static func rawExtension(_ oid: ASN1ObjectIdentifier, critical: Bool?, value: [UInt8]) -> [UInt8] {
        encode { der in
            der.appendSequence { entry in
                entry.appendObjectIdentifier(oid)
                if let critical { entry.appendBool(critical) }
                entry.appendOctetString(value)
            }
        }
    }

    /// `[3] { SEQUENCE OF Extension }` from encoded entries.
    static func extensionsField(_ entries: [[UInt8]]) -> [UInt8] {
        encode { der in
            der.appendConstructed(.contextSpecific(3)) { wrapper in
                wrapper.appendSequence { list in for entry in entries { list.appendEncoded(entry) } }
            }
        }
    }
}

/// Where the fields of a v3 tbsCertificate sit (children of the tbs SEQUENCE).
enum TBSField {
    static let version = 0, serial = 1, signature = 2, issuer = 3, validity = 4, subject = 5, publicKey = 6, extensions = 7
}

extension TestCertificate {
    /// The certificate with its tbsCertificate edited by `edit` (a list of tbs children), signed
    /// with `issuerKey`, or with a dummy signature when `issuerKey` is nil (for parsing tests).
    func assembled(issuerName: [UInt8], issuerKey: (any TestCertificateKey)?,
                   outerAlgorithm: [UInt8]? = nil, edit: (inout [[UInt8]]) -> Void) -> [UInt8] {
        var fields = DERParts.children(tbsCertificate(issuerName: issuerName))
        edit(&fields)
        let tbs = DERParts.wrap(0x30, fields)
        let signature = issuerKey?.signatureValue(digest: signatureHash.hash(tbs), hash: signatureHash)
            ?? [UInt8](repeating: 0x5A, count: 256)
        return DERParts.encode { der in
            der.appendSequence { cert in
                cert.appendEncoded(tbs)
                cert.appendEncoded(outerAlgorithm ?? TestCertificate.algorithmIdentifier(signatureHash))
                cert.appendBitString(signature)
            }
        }
    }
}

/// Runs a command-line tool and returns its standard output; throws with its standard error
/// when it exits with a non-zero status.
struct ToolFailure: Error, CustomStringConvertible {
    let command: String
    let status: Int32
    let stderr: String
    var description: String { "\(command) exited with \(status): \(stderr)" }
}

enum Tools {
    /// Runs `body` with a new empty folder that is removed afterwards.
    static func withTemporaryDirectory<R>(_ body: (URL) throws -> R) throws -> R {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pkcs7-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    /// The first executable named `name` on PATH (or in /usr/bin, /usr/local/bin).
    static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/bin"]
        for folder in folders {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    @discardableResult
    static func run(_ executable: URL, _ arguments: [String], in directory: URL) throws -> Data {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        // Standard error goes to a file, so that a chatty tool cannot block on a full pipe
        // while standard output is being read.
        let errorFile = directory.appendingPathComponent("stderr-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        defer { try? errorHandle.close() }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errorHandle
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = FileManager.default.contents(atPath: errorFile.path) ?? Data()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(command: ([executable.lastPathComponent] + arguments).joined(separator: " "),
                              status: process.terminationStatus, stderr: String(decoding: errData, as: UTF8.self))
        }
        return outData
    }
}
