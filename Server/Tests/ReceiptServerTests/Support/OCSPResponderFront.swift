import CryptoPrimitives
import Foundation
import ReceiptTestSupport
import X509Certificates

/// A G3-shaped chain made by `openssl` whose leaf and intermediate name an OCSP responder on
/// loopback (authorityInfoAccess), and that responder: a small Python HTTP front (bound to
/// 127.0.0.1 only) that hands each posted request to OpenSSL's own responder
/// (`openssl ocsp -index … -reqin … -respout …`) and returns its answer. Leaves are answered by
/// a delegated responder certificate the intermediate issued (id-kp-OCSPSigning); the
/// intermediate by the root itself.
///
/// - root "Revocation Test Root" (P-256, the `--root-g3` anchor);
/// - intermediate "Revocation Test WWDR" (marker 1.2.840.113635.100.6.2.1), good in the root's index;
/// - leaves "Good Signer" (serial 0x1001, good) and "Revoked Signer" (0x1002, keyCompromise),
///   with marker 1.2.840.113635.100.6.11.1.
///
/// `down` makes the front answer 503; `stop()` ends it (connections refused); every request's path is
/// counted (`requestCount`).
final class OCSPResponderFront: @unchecked Sendable {
    let directory: URL
    let port: Int
    private let process: Process
    let rootDERPath: String
    let intermediate: [UInt8], goodLeaf: [UInt8], revokedLeaf: [UInt8], root: [UInt8]
    let goodKey: P256SigningKey?, revokedKey: P256SigningKey?

    /// The certificates' keys: EC P-256 (StoreKit 2's shape) or RSA-2048 (receipts').
    enum Keys: String, Sendable { case ec, rsa }

    init(keys: Keys = .ec) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocsp-front-\(UUID().uuidString)")
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(Self.script.utf8).write(to: directory.appendingPathComponent("front.py"))
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", directory.appendingPathComponent("front.py").path, directory.path, keys.rawValue]
        let output = Pipe()
        process.standardOutput = output
        // Not the test run's standard error: a front outliving a killed run would hold that pipe open.
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line, once the PKI is made: the port.
        guard let line = String(data: output.fileHandleForReading.availableData, encoding: .utf8),
            let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw OCSPFrontError("the OCSP front did not print its port") }
        self.port = port

        rootDERPath = directory.appendingPathComponent("root.der").path
        let der = { (name: String) throws -> [UInt8] in
            [UInt8](try Data(contentsOf: directory.appendingPathComponent("\(name).der")))
        }
        root = try der("root")
        intermediate = try der("wwdr")
        goodLeaf = try der("good")
        revokedLeaf = try der("revoked")
        let key = { (name: String) throws -> P256SigningKey in
            try P256PrivateKeyFile.signingKey(pem: String(contentsOf: directory.appendingPathComponent("\(name).key"), encoding: .utf8))
        }
        goodKey = keys == .ec ? try key("good") : nil
        revokedKey = keys == .ec ? try key("revoked") : nil
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Whether the front answers 503 instead of asking OpenSSL.
    var down: Bool {
        get { FileManager.default.fileExists(atPath: directory.appendingPathComponent("down").path) }
        set {
            let path = directory.appendingPathComponent("down").path
            if newValue {
                _ = FileManager.default.createFile(atPath: path, contents: Data())
            } else {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// Requests received so far (each line of the front's log is one request's path).
    var requestCount: Int {
        guard let log = try? String(contentsOf: directory.appendingPathComponent("requests.log"), encoding: .utf8) else { return 0 }
        return log.split(separator: "\n").count
    }

    /// Ends the front: its port then refuses connections.
    func stop() {
        guard process.isRunning else { return }
        // SIGKILL: the test process blocks SIGTERM, and a child inherits that mask.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// A receipt (PKCS#7 SignedData over `payload`, no signed attributes, SHA-256) signed by the
    /// good or the revoked leaf with `openssl cms`, carrying the leaf and the intermediate (RSA keys).
    func receipt(_ payload: [UInt8], revoked: Bool = false) throws -> [UInt8] {
        let name = UUID().uuidString
        try Data(payload).write(to: directory.appendingPathComponent("\(name).payload"))
        let signer = revoked ? "revoked" : "good"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.currentDirectoryURL = directory
        process.arguments = [
            "openssl", "cms", "-sign", "-binary", "-nodetach", "-noattr", "-md", "sha256", "-in", "\(name).payload",
            "-signer", "\(signer).pem", "-inkey", "\(signer).key", "-certfile", "wwdr.pem", "-outform", "DER", "-out", "\(name).p7",
        ]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw OCSPFrontError("openssl cms -sign failed") }
        return [UInt8](try Data(contentsOf: directory.appendingPathComponent("\(name).p7")))
    }

    /// A compact JWS of `payload` signed by the good or the revoked leaf, its chain in `x5c`.
    func token(_ payload: [String: Any], revoked: Bool = false) -> String {
        let json = try! JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
        let x5c = [revoked ? revokedLeaf : goodLeaf, intermediate, root]
        let header = TestJWS.header(x5c: x5c)
        let input = TestJWS.base64URL(Array(header.utf8)) + "." + TestJWS.base64URL(Array(json))
        let key = (revoked ? revokedKey : goodKey)!
        return input + "." + TestJWS.base64URL(key.signature(for: SHA256.hash(Array(input.utf8))))
    }

    /// The front: binds a loopback port, makes the PKI with openssl (the port in its
    /// authorityInfoAccess URLs), prints the port, then answers POST /wwdr about leaves (delegated
    /// responder) and POST /root about the intermediate.
    static let script = #"""
        import http.server, os, subprocess, sys, threading, time, uuid
        directory = sys.argv[1]
        parent = os.getppid()
        def end_with_parent():
            # The test process may die without stopping the front (a crash, SIGKILL): follow it.
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(0)
        threading.Thread(target=end_with_parent, daemon=True).start()
        keys = sys.argv[2]
        def openssl(*arguments):
            subprocess.run(["openssl", *arguments], cwd=directory, check=True, capture_output=True)
        def make_pki(port):
            base = "http://127.0.0.1:%d" % port
            with open(os.path.join(directory, "openssl.cnf"), "w") as config:
                config.write(CONFIG.replace("BASE", base))
            for name in ["root", "wwdr", "good", "revoked", "responder"]:
                if keys == "rsa":
                    openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", name + ".key")
                else:
                    openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", name + ".key")
            openssl("req", "-new", "-x509", "-key", "root.key", "-subj", "/CN=Revocation Test Root", "-days", "30",
                    "-config", "openssl.cnf", "-extensions", "root_ext", "-out", "root.pem")
            def issue(name, subject, serial, issuer, extensions):
                openssl("req", "-new", "-key", name + ".key", "-subj", subject, "-config", "openssl.cnf", "-out", name + ".csr")
                openssl("x509", "-req", "-in", name + ".csr", "-CA", issuer + ".pem", "-CAkey", issuer + ".key",
                        "-set_serial", serial, "-days", "30", "-extfile", "openssl.cnf", "-extensions", extensions,
                        "-out", name + ".pem")
            issue("wwdr", "/CN=Revocation Test WWDR", "0x2006", "root", "wwdr_ext")
            issue("good", "/CN=Good Signer", "0x1001", "wwdr", "leaf_ext")
            issue("revoked", "/CN=Revoked Signer", "0x1002", "wwdr", "leaf_ext")
            issue("responder", "/CN=Revocation Test OCSP Responder", "0x3001", "wwdr", "responder_ext")
            # index.txt: status, expiry, revocation time[,reason], serial (hex), file, subject.
            with open(os.path.join(directory, "root-index.txt"), "w") as index:
                index.write("V\t351231000000Z\t\t2006\tunknown\t/CN=Revocation Test WWDR\n")
            with open(os.path.join(directory, "wwdr-index.txt"), "w") as index:
                index.write("V\t351231000000Z\t\t1001\tunknown\t/CN=Good Signer\n")
                index.write("R\t351231000000Z\t250101000000Z,keyCompromise\t1002\tunknown\t/CN=Revoked Signer\n")
            for name in ["root", "wwdr", "good", "revoked"]:
                openssl("x509", "-in", name + ".pem", "-outform", "DER", "-out", name + ".der")
        CONFIG = """[req]
        distinguished_name = dn
        [dn]
        [root_ext]
        basicConstraints = critical,CA:TRUE
        keyUsage = critical,keyCertSign,cRLSign
        subjectKeyIdentifier = hash
        [wwdr_ext]
        basicConstraints = critical,CA:TRUE,pathlen:0
        keyUsage = critical,keyCertSign,cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid
        1.2.840.113635.100.6.2.1 = ASN1:NULL
        authorityInfoAccess = OCSP;URI:BASE/root
        [leaf_ext]
        basicConstraints = critical,CA:FALSE
        keyUsage = critical,digitalSignature
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid
        1.2.840.113635.100.6.11.1 = ASN1:NULL
        certificatePolicies = 1.2.840.113635.100.5.6.1
        authorityInfoAccess = OCSP;URI:BASE/wwdr
        [responder_ext]
        basicConstraints = critical,CA:FALSE
        keyUsage = critical,digitalSignature
        extendedKeyUsage = OCSPSigning
        """
        signers = {"/wwdr": ("wwdr-index.txt", "wwdr.pem", "responder.pem", "responder.key"),
                   "/root": ("root-index.txt", "root.pem", "root.pem", "root.key")}
        class Front(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with open(os.path.join(directory, "requests.log"), "a") as log:
                    log.write(self.path + "\n")
                if os.path.exists(os.path.join(directory, "down")) or self.path not in signers:
                    self.send_response(503); self.send_header("Content-Length", "0"); self.end_headers(); return
                index, ca, signer, key = signers[self.path]
                name = str(uuid.uuid4())
                with open(os.path.join(directory, name + ".req"), "wb") as request:
                    request.write(body)
                done = subprocess.run(["openssl", "ocsp", "-index", index, "-CA", ca, "-rsigner", signer, "-rkey", key,
                                       "-reqin", name + ".req", "-respout", name + ".resp", "-ndays", "1"],
                                      cwd=directory, capture_output=True)
                if done.returncode != 0:
                    self.send_response(500); self.send_header("Content-Length", "0"); self.end_headers(); return
                with open(os.path.join(directory, name + ".resp"), "rb") as response:
                    answer = response.read()
                self.send_response(200)
                self.send_header("Content-Type", "application/ocsp-response")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
            def log_message(self, *arguments):
                pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Front)
        make_pki(server.server_address[1])
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}

struct OCSPFrontError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
