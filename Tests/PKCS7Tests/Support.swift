import CryptoPrimitives
import DER
import Foundation
import TestHelpers
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

/// A TestCertificate's subject as errors name it: a `CertificateName` over its DER, equal to the
/// one a verifier reports only when the bytes are the same.
func name(_ certificate: TestCertificate) -> CertificateName {
    CertificateName(der: ArraySlice(certificate.subjectName))
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
    static func receipt(
        signer: TestCertificate = chain.leaf, issuerName: [UInt8]? = nil,
        certificates: [[UInt8]]? = nil, digest: HashAlgorithm = .sha256,
        signatureAlgorithm: TestSignedData.SignatureAlgorithmChoice = .rsaEncryption,
        signedAttributes: Bool = false, berSegmentSize: Int? = nil
    ) -> TestSignedData {
        TestSignedData(
            content: payload, signer: signer, signerIssuerName: issuerName ?? chain.intermediate.subjectName,
            certificates: certificates ?? [leafDER, intermediateDER, rootDER], digest: digest,
            signatureAlgorithm: signatureAlgorithm, signedAttributes: signedAttributes,
            berSegmentSize: berSegmentSize)
    }

    /// Verifies `data` (encoded and parsed) under `policy` at `time`.
    @discardableResult
    static func verify(
        _ data: TestSignedData, policy: TrustPolicy = policy, at time: Int64 = time,
        linkStore: (any VerifiedLinkStore)? = nil
    ) throws -> VerifiedSignature {
        let signedData = try SignedData(berEncoded: data.encoded())
        return try SignedDataVerifier(policy: policy, linkStore: linkStore).verify(signedData, at: time)
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
    static func find(_ name: String) -> URL? { ToolProcess.find(name) }

    @discardableResult
    static func run(_ executable: URL, _ arguments: [String], in directory: URL) throws -> Data {
        let result = try ToolProcess.run(executable, arguments, in: directory)
        guard result.status == 0 else {
            throw ToolFailure(
                command: ([executable.lastPathComponent] + arguments).joined(separator: " "),
                status: result.status, stderr: String(decoding: result.error, as: UTF8.self))
        }
        return result.output
    }
}
