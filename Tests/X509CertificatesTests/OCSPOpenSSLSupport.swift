import Foundation
import TestHelpers
import X509Certificates

/// A throwaway PKI made with `openssl` in a temporary folder, and OpenSSL's own OCSP responder
/// (`openssl ocsp -index … -reqin … -respout …`) to answer requests this library builds.
///
/// - CA "Test OCSP CA" (EC P-256 or RSA-2048);
/// - leaves `good` (serial 1001), `revoked` (1002, keyCompromise) and `unknown` (1003, not in the
///   index), each with an authorityInfoAccess naming `http://ocsp.example.test/ocsp`;
/// - a delegated responder with id-kp-OCSPSigning, one without it, one with it issued by another
///   CA, and one with it issued by an impostor CA bearing the CA's name but another key.
final class OCSPTestPKI: @unchecked Sendable {
    enum KeyType: String, CaseIterable, Sendable, CustomStringConvertible {
        case ecP256 = "ec", rsa2048 = "rsa"
        var description: String { self == .ecP256 ? "EC P-256" : "RSA-2048" }
    }

    /// A certificate with its PEM file and key file.
    struct Entity {
        let certificate: Certificate
        let pem: String
        let key: String
    }

    static let openssl: URL? = OpenSSLTool.url
    /// Whether the OpenSSL tests run: when openssl is installed, and always under CI (where a
    /// missing openssl then fails them).
    static let shouldRun = openssl != nil || Fixtures.isCI
    static let revocationTime = "20250101000000Z"
    static let aiaURL = "http://ocsp.example.test/ocsp"

    let directory: URL
    let keyType: KeyType
    let ca: Entity
    let good: Entity, revoked: Entity, unknown: Entity
    let responder: Entity, responderWithoutEKU: Entity, responderOfOtherCA: Entity, responderOfImpostor: Entity

    private static let ec = Result { try OCSPTestPKI(.ecP256) }
    private static let rsa = Result { try OCSPTestPKI(.rsa2048) }

    static func shared(_ type: KeyType) throws -> OCSPTestPKI {
        try (type == .ecP256 ? ec : rsa).get()
    }

    private init(_ keyType: KeyType) throws {
        self.keyType = keyType
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocsp-tests-\(UUID().uuidString)")
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = """
            [req]
            distinguished_name = dn
            [dn]
            [ca_ext]
            basicConstraints = critical,CA:TRUE
            keyUsage = critical,keyCertSign,cRLSign
            subjectKeyIdentifier = hash
            [leaf_ext]
            basicConstraints = critical,CA:FALSE
            keyUsage = critical,digitalSignature
            authorityInfoAccess = OCSP;URI:\(Self.aiaURL),caIssuers;URI:http://ca.example.test/ca.cer
            [responder_ext]
            basicConstraints = critical,CA:FALSE
            keyUsage = critical,digitalSignature
            extendedKeyUsage = OCSPSigning
            [plain_ext]
            basicConstraints = critical,CA:FALSE
            keyUsage = critical,digitalSignature

            """
        try Data(config.utf8).write(to: directory.appendingPathComponent("openssl.cnf"))

        func makeKey(_ name: String) throws -> String {
            let file = "\(name).key"
            switch keyType {
            case .ecP256: try Self.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", file], in: directory)
            case .rsa2048: try Self.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", file], in: directory)
            }
            return file
        }
        func makeCA(_ name: String, subject: String) throws -> Entity {
            let key = try makeKey(name)
            try Self.run(
                [
                    "req", "-new", "-x509", "-key", key, "-subj", subject, "-days", "3650", "-config", "openssl.cnf",
                    "-extensions", "ca_ext", "-out", "\(name).pem",
                ], in: directory)
            return try entity(name, key: key)
        }
        func issue(_ name: String, subject: String, serial: String, by issuer: Entity, extensions: String) throws -> Entity {
            let key = try makeKey(name)
            try Self.run(["req", "-new", "-key", key, "-subj", subject, "-config", "openssl.cnf", "-out", "\(name).csr"], in: directory)
            try Self.run(
                [
                    "x509", "-req", "-in", "\(name).csr", "-CA", issuer.pem, "-CAkey", issuer.key, "-set_serial", serial,
                    "-days", "365", "-extfile", "openssl.cnf", "-extensions", extensions, "-out", "\(name).pem",
                ], in: directory)
            return try entity(name, key: key)
        }
        func entity(_ name: String, key: String) throws -> Entity {
            let pem = try String(contentsOf: directory.appendingPathComponent("\(name).pem"), encoding: .utf8)
            let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            let der = try [UInt8](Data(base64Encoded: body) ?? { throw OCSPTestError.openssl("bad PEM \(name)") }())
            return Entity(certificate: try Certificate(derEncoded: der), pem: "\(name).pem", key: key)
        }

        let ca = try makeCA("ca", subject: "/CN=Test OCSP CA")
        self.ca = ca
        good = try issue("good", subject: "/CN=Good Leaf", serial: "0x1001", by: ca, extensions: "leaf_ext")
        revoked = try issue("revoked", subject: "/CN=Revoked Leaf", serial: "0x1002", by: ca, extensions: "leaf_ext")
        unknown = try issue("unknown", subject: "/CN=Unknown Leaf", serial: "0x1003", by: ca, extensions: "leaf_ext")
        responder = try issue("responder", subject: "/CN=OCSP Responder", serial: "0x2001", by: ca, extensions: "responder_ext")
        responderWithoutEKU = try issue("noeku", subject: "/CN=OCSP Responder Without EKU", serial: "0x2002", by: ca, extensions: "plain_ext")
        let other = try makeCA("other", subject: "/CN=Other CA")
        responderOfOtherCA = try issue("otherresponder", subject: "/CN=Other Responder", serial: "0x3001", by: other, extensions: "responder_ext")
        let impostor = try makeCA("impostor", subject: "/CN=Test OCSP CA")
        responderOfImpostor = try issue(
            "impostorresponder", subject: "/CN=Impostor Responder", serial: "0x4001", by: impostor, extensions: "responder_ext")

        // index.txt: status, expiry, revocation time[,reason], serial (hex), file, subject.
        let index = """
            V\t301231000000Z\t\t1001\tunknown\t/CN=Good Leaf
            R\t301231000000Z\t\(Self.revocationTime.dropFirst(2)),keyCompromise\t1002\tunknown\t/CN=Revoked Leaf

            """
        try Data(index.utf8).write(to: directory.appendingPathComponent("index.txt"))
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// OpenSSL's responder's answer to `request`, signed by `signer` (its certificate and key,
    /// the CA itself when `nil`), valid for `days` days; `extra` arguments go to `openssl ocsp`.
    func respond(to request: [UInt8], signer: Entity? = nil, days: Int = 1, extra: [String] = []) throws -> [UInt8] {
        let name = UUID().uuidString
        try Data(request).write(to: directory.appendingPathComponent("\(name).req"))
        let signer = signer ?? ca
        try Self.run(
            [
                "ocsp", "-index", "index.txt", "-CA", ca.pem, "-rsigner", signer.pem, "-rkey", signer.key,
                "-reqin", "\(name).req", "-respout", "\(name).resp", "-ndays", String(days),
            ] + extra, in: directory)
        return [UInt8](try Data(contentsOf: directory.appendingPathComponent("\(name).resp")))
    }

    /// What `openssl ocsp -reqin -req_text` prints about `request`.
    func describe(request: [UInt8]) throws -> String {
        let name = UUID().uuidString
        try Data(request).write(to: directory.appendingPathComponent("\(name).req"))
        return try Self.run(["ocsp", "-reqin", "\(name).req", "-req_text"], in: directory)
    }

    /// OpenSSL's own request for `certificate` (no nonce).
    func opensslRequest(for certificate: Entity) throws -> [UInt8] {
        let name = UUID().uuidString
        try Self.run(["ocsp", "-issuer", ca.pem, "-cert", certificate.pem, "-no_nonce", "-reqout", "\(name).req"], in: directory)
        return [UInt8](try Data(contentsOf: directory.appendingPathComponent("\(name).req")))
    }

    /// Runs openssl in `directory` (`OpenSSLTool.run`); returns standard output, throws on a
    /// non-zero exit with what it printed.
    @discardableResult
    static func run(_ arguments: [String], in directory: URL) throws -> String {
        guard let result = try OpenSSLTool.run(arguments, in: directory) else {
            throw OCSPTestError.openssl("openssl not found (install it; CI=true requires it)")
        }
        guard result.status == 0 else {
            throw OCSPTestError.openssl(
                "openssl \(arguments.joined(separator: " ")): exit \(result.status): \(result.output)\(result.error)")
        }
        return result.output
    }
}

enum OCSPTestError: Error, CustomStringConvertible {
    case openssl(String)
    var description: String {
        switch self {
        case .openssl(let message): return message
        }
    }
}
