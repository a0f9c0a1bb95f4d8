import CryptoPrimitives
import Foundation
import PKCS7
import X509Certificates
import ReceiptTestSupport
import Testing
import TestHelpers

/// Cross-check with OpenSSL: a root, an intermediate and a leaf made with `openssl req` /
/// `openssl x509`, receipts made with `openssl cms -sign` in every shape (signed attributes or
/// not, SHA-1 or SHA-256, DER or streamed BER, issuer+serial or key identifier); each decodes and
/// verifies under a custom policy anchored at its own root. And the other way round: OpenSSL
/// verifies a synthetic receipt.
///
/// Runs whenever `openssl` is found; under `CI=true` a missing `openssl` fails instead of skipping.
@Suite(.enabled(if: Tools.find("openssl") != nil || Fixtures.isCI))
struct OpenSSLInteropTests {
    /// Certificates and keys made once per test run (in a temporary folder that is removed
    /// again), kept in memory; each signing runs in a temporary folder of its own.
    struct PKI: Sendable {
        let openssl: URL
        let root: [UInt8]
        let intermediate: [UInt8]
        let leaf: [UInt8]
        /// The files `openssl cms -sign` needs: signer certificate and key, intermediate, payload.
        let signingFiles: [String: Data]
        /// Inside every validity: the certificates are made now, valid for years.
        let time: Int64

        static let config = """
            [req]
            distinguished_name = dn
            prompt = no
            [dn]
            CN = unused
            [v3_root]
            basicConstraints = critical,CA:TRUE
            keyUsage = critical,keyCertSign,cRLSign
            subjectKeyIdentifier = hash
            [v3_intermediate]
            basicConstraints = critical,CA:TRUE,pathlen:0
            keyUsage = critical,keyCertSign,cRLSign
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            [v3_leaf]
            basicConstraints = critical,CA:FALSE
            keyUsage = critical,digitalSignature
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            """

        init() throws {
            let openssl = try #require(Tools.find("openssl"), "openssl is required (OpenSSL 3)")
            self.openssl = openssl
            var files: [String: Data] = [:]
            try Tools.withTemporaryDirectory { directory in
                try Self.config.write(to: directory.appendingPathComponent("openssl.cnf"), atomically: true, encoding: .utf8)
                func run(_ arguments: [String]) throws { try Tools.run(openssl, arguments, in: directory) }
                try run([
                    "req", "-x509", "-config", "openssl.cnf", "-extensions", "v3_root", "-newkey", "rsa:2048", "-nodes",
                    "-keyout", "root.key", "-out", "root.pem", "-days", "3650", "-sha256", "-set_serial", "1",
                    "-subj", "/C=US/O=Interop/CN=Interop Root",
                ])
                for (name, issuer, serial, ext) in [("intermediate", "root", "2", "v3_intermediate"), ("leaf", "intermediate", "3", "v3_leaf")] {
                    try run([
                        "req", "-new", "-config", "openssl.cnf", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(name).key",
                        "-out", "\(name).csr", "-subj", "/C=US/O=Interop/CN=Interop \(name)",
                    ])
                    try run([
                        "x509", "-req", "-in", "\(name).csr", "-CA", "\(issuer).pem", "-CAkey", "\(issuer).key",
                        "-set_serial", serial, "-days", "3000", "-sha256", "-extfile", "openssl.cnf", "-extensions", ext,
                        "-out", "\(name).pem",
                    ])
                }
                for name in ["root", "intermediate", "leaf"] {
                    try run(["x509", "-in", "\(name).pem", "-outform", "DER", "-out", "\(name).der"])
                }
                for name in ["root.der", "intermediate.der", "leaf.der", "leaf.pem", "leaf.key", "intermediate.pem"] {
                    files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
                }
            }
            root = [UInt8](files["root.der"]!)
            intermediate = [UInt8](files["intermediate.der"]!)
            leaf = [UInt8](files["leaf.der"]!)
            signingFiles = [
                "leaf.pem": files["leaf.pem"]!, "leaf.key": files["leaf.key"]!,
                "intermediate.pem": files["intermediate.pem"]!, "payload.bin": Data(Synthetic.payload),
            ]
            time = Int64(Date().timeIntervalSince1970) + 86_400
        }

        /// `openssl cms -sign` over the payload with `options`; the DER/BER output.
        func sign(_ options: [String]) throws -> [UInt8] {
            try Tools.withTemporaryDirectory { directory in
                for (name, data) in signingFiles { try data.write(to: directory.appendingPathComponent(name)) }
                try Tools.run(
                    openssl,
                    [
                        "cms", "-sign", "-binary", "-nosmimecap", "-nodetach", "-outform", "DER",
                        "-in", "payload.bin", "-signer", "leaf.pem", "-inkey", "leaf.key",
                        "-certfile", "intermediate.pem", "-out", "receipt.der",
                    ] + options, in: directory)
                return [UInt8](try Data(contentsOf: directory.appendingPathComponent("receipt.der")))
            }
        }

        var policy: TrustPolicy { .custom(anchors: [try! TrustAnchor(derEncoded: root)]) }
    }

    static let pki = Result { try PKI() }

    struct Variant: CustomTestStringConvertible, Sendable {
        var attributes: Bool
        var digest: HashAlgorithm
        var stream: Bool
        var keyID = false

        var options: [String] {
            ["-md", digest == .sha1 ? "sha1" : "sha256"] + (attributes ? [] : ["-noattr"]) + (stream ? ["-stream"] : [])
                + (keyID ? ["-keyid"] : [])
        }
        var testDescription: String { options.joined(separator: " ") }
    }

    static let variants: [Variant] =
        [true, false].flatMap { attributes in
            [HashAlgorithm.sha1, .sha256].flatMap { digest in
                [false, true].map { Variant(attributes: attributes, digest: digest, stream: $0) }
            }
        } + [
            Variant(attributes: true, digest: .sha256, stream: false, keyID: true),
            Variant(attributes: false, digest: .sha1, stream: true, keyID: true),
        ]

    @Test(arguments: variants)
    func opensslReceiptDecodesAndVerifies(_ variant: Variant) throws {
        let pki = try Self.pki.get()
        let bytes = try pki.sign(variant.options)
        let signedData = try SignedData(berEncoded: bytes)
        #expect(signedData.contentBytes() == Synthetic.payload)
        #expect(signedData.contentCount == Synthetic.payload.count)
        #expect(signedData.digestAlgorithms == [variant.digest])
        let signer = try #require(signedData.signerInfos.first)
        #expect(signer.digestAlgorithm == variant.digest)
        #expect((signer.signedAttributes != nil) == variant.attributes)
        #expect(signer.version == (variant.keyID ? 3 : 1))
        if variant.stream {
            #expect(bytes[1] == 0x80, "streamed output starts with an indefinite length")
        } else {
            #expect(signedData.contentRange.map { Array(bytes[$0]) } == Synthetic.payload)
        }

        let result = try SignedDataVerifier(policy: pki.policy).verify(signedData, at: pki.time)
        #expect(result.chain.map { Array($0.encoded) } == [pki.leaf, pki.intermediate, pki.root])
        // The key identifiers OpenSSL writes link the chain.
        #expect(result.chain[0].extensions.authorityKeyIdentifier == result.chain[1].extensions.subjectKeyIdentifier)
        #expect(result.chain[0].extensions.authorityKeyIdentifier != nil)
    }

    /// The same receipts are rejected when the content changes or the anchor is another one.
    @Test(arguments: [true, false])
    func tamperedOpenSSLReceiptFails(_ attributes: Bool) throws {
        let pki = try Self.pki.get()
        var bytes = try pki.sign(attributes ? ["-md", "sha256"] : ["-md", "sha256", "-noattr"])
        let signedData = try SignedData(berEncoded: bytes)
        let content = try #require(signedData.contentRange)
        bytes[content.lowerBound + 20] ^= 0x01
        let tampered = try SignedData(berEncoded: bytes)
        // The names as errors give them: the carried certificates' subjects, found by their text.
        func subject(_ text: String) throws -> CertificateName {
            try #require(signedData.certificates.first { $0.subjectDescription == text }).subjectName
        }
        let leafSubject = try subject("C=US,O=Interop,CN=Interop leaf")
        let expected: VerificationError = attributes ? .messageDigestMismatch : .signatureInvalid(subject: leafSubject)
        #expect(throws: expected) { _ = try SignedDataVerifier(policy: pki.policy).verify(tampered, at: pki.time) }

        // Anchored elsewhere: OpenSSL's chain carries no root, so it stops at the intermediate.
        #expect(throws: VerificationError.chainIncomplete(subject: try subject("C=US,O=Interop,CN=Interop intermediate"))) {
            _ = try SignedDataVerifier(policy: Synthetic.plainPolicy).verify(signedData, at: pki.time)
        }
        // Before the certificates were made: the leaf is not yet valid.
        let early = utc(2001, 1, 1)
        let error = #expect(throws: VerificationError.self) { _ = try SignedDataVerifier(policy: pki.policy).verify(signedData, at: early) }
        guard case .notYetValid(let subject, let notBefore, let at) = error else {
            Issue.record("expected notYetValid, got \(String(describing: error))")
            return
        }
        #expect(subject == leafSubject && at == early)
        #expect(abs(notBefore - (pki.time - 86_400)) < 3_600)
    }

    /// The other direction: `openssl cms -verify` accepts what `TestSignedData` builds, in each
    /// shape, anchored at the synthetic root.
    @Test(arguments: [false, true])
    func opensslVerifiesSyntheticReceipts(_ ber: Bool) throws {
        let pki = try Self.pki.get()
        try Tools.withTemporaryDirectory { directory in
            try Data(Synthetic.rootDER).write(to: directory.appendingPathComponent("synthetic-root.der"))
            try Tools.run(pki.openssl, ["x509", "-inform", "DER", "-in", "synthetic-root.der", "-out", "synthetic-root.pem"], in: directory)
            for (index, data) in [
                Synthetic.receipt(berSegmentSize: ber ? 300 : nil),
                Synthetic.receipt(signedAttributes: true, berSegmentSize: ber ? 300 : nil),
            ].enumerated() {
                let name = "synthetic-\(index).der"
                try Data(data.encoded()).write(to: directory.appendingPathComponent(name))
                let output = try Tools.run(
                    pki.openssl,
                    [
                        "cms", "-verify", "-inform", "DER", "-in", name, "-CAfile", "synthetic-root.pem",
                        "-purpose", "any", "-attime", String(Synthetic.time), "-binary",
                    ], in: directory)
                #expect([UInt8](output) == Synthetic.payload)
            }
        }
    }
}
