import CryptoPrimitives
import DER
import Foundation
import TestHelpers
import Testing
import X509Certificates

/// Reading P-256 private keys: PKCS#8 (Apple's `.p8`) and SEC 1, PEM and DER, made by hand and
/// by OpenSSL; keys of other kinds and broken files refused with the right error.
@Suite struct P256PrivateKeyFileTests {
    /// RFC 6979 §A.2.5's key.
    static let rfcScalar = Hex.bytes("C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721")
    static let rfcPoint = Hex.bytes(
        """
        04 60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6
        7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299
        """)
    static let p256Algorithm = Hex.bytes("30 13 06 07 2a8648ce3d0201 06 08 2a8648ce3d030107")

    /// ECPrivateKey { 1, d } (RFC 5915), optionally with [0] prime256v1 and [1] the point.
    static func sec1(_ scalar: [UInt8] = rfcScalar, curve: Bool = true, point: [UInt8]? = rfcPoint, version: UInt8 = 1) -> [UInt8] {
        var body: [UInt8] = [0x02, 0x01, version, 0x04, UInt8(scalar.count)] + scalar
        if curve { body += Hex.bytes("a0 0a 06 08 2a8648ce3d030107") }
        if let point { body += [0xa1, UInt8(point.count + 3), 0x03, UInt8(point.count + 1), 0x00] + point }
        return [0x30] + length(body.count) + body
    }

    /// PrivateKeyInfo { version, id-ecPublicKey prime256v1, OCTET STRING ECPrivateKey }.
    static func pkcs8(_ inner: [UInt8] = sec1(curve: false), algorithm: [UInt8] = p256Algorithm, version: UInt8 = 0) -> [UInt8] {
        let body = [0x02, 0x01, version] + algorithm + [0x04] + length(inner.count) + inner
        return [0x30] + length(body.count) + body
    }

    /// A DER length (X.690 §10.1: short form below 128, else 0x81 and one byte).
    static func length(_ count: Int) -> [UInt8] { count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)] }

    static func pem(_ der: [UInt8], label: String) -> String {
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(base64)\n-----END \(label)-----\n"
    }

    @Test func handMadeFormsGiveTheRFCKey() throws {
        let forms: [(String, () throws -> P256SigningKey)] = [
            ("PKCS#8 DER", { try P256PrivateKeyFile.signingKey(pkcs8DER: Self.pkcs8()) }),
            (
                "PKCS#8 DER, ECPrivateKey without the point",
                { try P256PrivateKeyFile.signingKey(pkcs8DER: Self.pkcs8(Self.sec1(curve: false, point: nil))) }
            ),
            ("PKCS#8 PEM", { try P256PrivateKeyFile.signingKey(pem: Self.pem(Self.pkcs8(), label: "PRIVATE KEY")) }),
            ("SEC 1 DER", { try P256PrivateKeyFile.signingKey(sec1DER: Self.sec1()) }),
            ("SEC 1 PEM", { try P256PrivateKeyFile.signingKey(pem: Self.pem(Self.sec1(), label: "EC PRIVATE KEY")) }),
            (
                "SEC 1 PEM after EC PARAMETERS",
                {
                    try P256PrivateKeyFile.signingKey(
                        pem: Self.pem(Hex.bytes("06082a8648ce3d030107"), label: "EC PARAMETERS") + Self.pem(Self.sec1(), label: "EC PRIVATE KEY"))
                }
            ),
            (
                "SEC 1 with a 31-byte scalar padded",
                {
                    // d = 0x00ff…: the leading zero byte dropped, as some old writers do.
                    let key = try P256PrivateKeyFile.signingKey(sec1DER: Self.sec1([UInt8](repeating: 0xff, count: 31), point: nil))
                    #expect(key.rawRepresentation == [0] + [UInt8](repeating: 0xff, count: 31))
                    return try P256SigningKey(rawRepresentation: Self.rfcScalar)
                }
            ),
        ]
        for (name, read) in forms {
            let key = try read()
            #expect(key.publicKey.x963Representation == Self.rfcPoint, "\(name)")
            #expect(key.rawRepresentation == Self.rfcScalar, "\(name)")
        }
    }

    @Test func handMadeFormsRefused() {
        func expect(_ error: P256PrivateKeyFileError, _ read: () throws(P256PrivateKeyFileError) -> P256SigningKey, _ comment: Comment) {
            do {
                _ = try read()
                Issue.record("accepted: \(comment)")
            } catch let thrown {
                #expect(thrown == error, comment)
            }
        }
        let p384Algorithm = Hex.bytes("30 10 06 07 2a8648ce3d0201 06 05 2b81040022")
        let rsaAlgorithm = Hex.bytes("30 0d 06 09 2a864886f70d010101 05 00")
        let ed25519Algorithm = Hex.bytes("30 05 06 03 2b6570")
        let wrongPoint = [UInt8](Self.rfcPoint.prefix(64)) + [Self.rfcPoint[64] ^ 1]
        let der = Self.pkcs8()
        expect(.notPEM, { () throws(P256PrivateKeyFileError) in try P256PrivateKeyFile.signingKey(pem: "hello") }, "no PEM")
        expect(
            .notPEM, { () throws(P256PrivateKeyFileError) in try P256PrivateKeyFile.signingKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n") }, "no END"
        )
        expect(
            .notAPrivateKey,
            { () throws(P256PrivateKeyFileError) in try P256PrivateKeyFile.signingKey(pem: Self.pem([1, 2, 3], label: "PUBLIC KEY")) }, "public key")
        expect(
            .encryptedKey,
            { () throws(P256PrivateKeyFileError) in try P256PrivateKeyFile.signingKey(pem: Self.pem(der, label: "ENCRYPTED PRIVATE KEY")) },
            "encrypted")
        expect(
            .rsaKey, { () throws(P256PrivateKeyFileError) in try P256PrivateKeyFile.signingKey(pem: Self.pem(der, label: "RSA PRIVATE KEY")) },
            "RSA PEM label")
        expect(
            .invalidBase64,
            { () throws(P256PrivateKeyFileError) in
                try P256PrivateKeyFile.signingKey(pem: Self.pem(der, label: "PRIVATE KEY").replacingOccurrences(of: "MI", with: "M*"))
            }, "bad base64")
        expect(
            .invalidBase64,
            { () throws(P256PrivateKeyFileError) in
                try P256PrivateKeyFile.signingKey(pem: "-----BEGIN PRIVATE KEY-----\nMIG\n-----END PRIVATE KEY-----")
            }, "base64 length")
        expect(
            .rsaKey, { () throws(P256PrivateKeyFileError) in try P256PrivateKeyFile.signingKey(pkcs8DER: Self.pkcs8(algorithm: rsaAlgorithm)) },
            "PKCS#8 RSA")
        expect(
            .unsupportedAlgorithm,
            { () throws(P256PrivateKeyFileError) in try P256PrivateKeyFile.signingKey(pkcs8DER: Self.pkcs8(algorithm: ed25519Algorithm)) }, "Ed25519")
        expect(
            .p384Key, { () throws(P256PrivateKeyFileError) in try P256PrivateKeyFile.signingKey(pkcs8DER: Self.pkcs8(algorithm: p384Algorithm)) },
            "PKCS#8 P-384")
        expect(
            .wrongVersion, { () throws(P256PrivateKeyFileError) in try P256PrivateKeyFile.signingKey(pkcs8DER: Self.pkcs8(version: 2)) },
            "PKCS#8 version 2")
        expect(
            .wrongVersion, { () throws(P256PrivateKeyFileError) in try P256PrivateKeyFile.signingKey(sec1DER: Self.sec1(version: 0)) },
            "SEC 1 version 0")
        expect(
            .missingCurve, { () throws(P256PrivateKeyFileError) in try P256PrivateKeyFile.signingKey(sec1DER: Self.sec1(curve: false)) },
            "SEC 1 without curve")
        expect(
            .publicKeyMismatch, { () throws(P256PrivateKeyFileError) in try P256PrivateKeyFile.signingKey(sec1DER: Self.sec1(point: wrongPoint)) },
            "wrong point")
        expect(
            .invalidPrivateKey,
            { () throws(P256PrivateKeyFileError) in
                try P256PrivateKeyFile.signingKey(sec1DER: Self.sec1([UInt8](repeating: 0, count: 32), point: nil))
            }, "d = 0")
        expect(
            .invalidPrivateKey,
            { () throws(P256PrivateKeyFileError) in
                try P256PrivateKeyFile.signingKey(sec1DER: Self.sec1([UInt8](repeating: 0xff, count: 32), point: nil))
            }, "d ≥ n")
        expect(
            .invalidPrivateKey,
            { () throws(P256PrivateKeyFileError) in
                try P256PrivateKeyFile.signingKey(sec1DER: Self.sec1([1] + Self.rfcScalar, point: nil))
            }, "33-byte scalar")
        // Truncated: every proper prefix is refused as malformed DER.
        for length in 0 ..< der.count {
            do {
                _ = try P256PrivateKeyFile.signingKey(pkcs8DER: Array(der.prefix(length)))
                Issue.record("accepted a \(length)-byte prefix")
            } catch {
                guard case .malformed = error else {
                    Issue.record("\(length)-byte prefix: \(error)")
                    continue
                }
            }
        }
        expect(
            .malformed(ASN1Error(.trailingBytes, at: der.count)),
            { () throws(P256PrivateKeyFileError) in try P256PrivateKeyFile.signingKey(pkcs8DER: der + [0]) }, "trailing")
    }

    /// Error descriptions never show the key: none contains a hex or decimal piece of it.
    @Test func errorsHoldNoKeyBytes() {
        let errors: [P256PrivateKeyFileError] = [
            .notPEM, .notAPrivateKey, .encryptedKey, .invalidBase64, .rsaKey, .p384Key, .unsupportedCurve, .unsupportedAlgorithm,
            .wrongVersion, .missingCurve, .malformed(ASN1Error(.truncated, at: 7)), .invalidPrivateKey, .publicKeyMismatch,
        ]
        for error in errors {
            #expect(!error.description.isEmpty)
            #expect(!error.description.lowercased().contains("c9afa9"))
        }
    }

    /// Keys OpenSSL generates (`genpkey`, then `ec` and `pkcs8` conversions) read back to the
    /// public key OpenSSL prints, and our signatures with them verify under OpenSSL; OpenSSL's
    /// P-384, RSA, Ed25519 and encrypted keys are refused with their errors.
    @Test func openSSLKeys() throws {
        guard OpenSSLTool.url != nil else {
            #expect(!OpenSSLTool.isRequired, "openssl is required under CI=true")
            print("P256PrivateKeyFileTests.openSSLKeys skipped: openssl not found")
            return
        }
        try OpenSSLTool.withTemporaryDirectory { directory in
            func openssl(_ arguments: String) throws {
                let result = try #require(try OpenSSLTool.run(arguments.split(separator: " ").map(String.init), in: directory))
                #expect(result.status == 0, "openssl \(arguments): \(result.error)")
            }
            func file(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: directory.appendingPathComponent(name))) }
            try openssl("genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out p8.pem")
            try openssl("ec -in p8.pem -out sec1.pem")
            try openssl("ec -in p8.pem -outform DER -out sec1.der")
            try openssl("pkcs8 -topk8 -nocrypt -in sec1.pem -outform DER -out p8.der")
            try openssl("ec -in p8.pem -pubout -outform DER -out public.der")
            try openssl("ecparam -name prime256v1 -genkey -out params-and-key.pem")
            let point = Array(try file("public.der").suffix(65))
            let keys = [
                try P256PrivateKeyFile.signingKey(pem: try file("p8.pem")),
                try P256PrivateKeyFile.signingKey(pem: try file("sec1.pem")),
                try P256PrivateKeyFile.signingKey(sec1DER: try file("sec1.der")),
                try P256PrivateKeyFile.signingKey(pkcs8DER: try file("p8.der")),
            ]
            for key in keys { #expect(key.publicKey.x963Representation == point) }
            _ = try P256PrivateKeyFile.signingKey(pem: try file("params-and-key.pem"))
            // Our signature under the key read from the .p8 verifies with OpenSSL's public key.
            let message = Array("App Store Server API".utf8)
            try Data(message).write(to: directory.appendingPathComponent("message"))
            try Data(keys[0].derSignature(for: HashAlgorithm.sha256.hash(message))).write(to: directory.appendingPathComponent("signature.der"))
            let verified = try #require(
                try OpenSSLTool.run(
                    ["dgst", "-sha256", "-verify", "public.der", "-keyform", "DER", "-signature", "signature.der", "message"], in: directory))
            #expect(verified.status == 0 && verified.output.contains("Verified OK"), "\(verified.output) \(verified.error)")

            try openssl("genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out p384.pem")
            try openssl("ec -in p384.pem -out p384-sec1.pem")
            try openssl("genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out rsa.pem")
            try openssl("rsa -in rsa.pem -traditional -out rsa-traditional.pem")
            try openssl("genpkey -algorithm ED25519 -out ed25519.pem")
            try openssl("pkcs8 -topk8 -in p8.pem -passout pass:secret -out encrypted.pem")
            let refused: [(String, P256PrivateKeyFileError)] = [
                ("p384.pem", .p384Key), ("p384-sec1.pem", .p384Key), ("rsa.pem", .rsaKey), ("rsa-traditional.pem", .rsaKey),
                ("ed25519.pem", .unsupportedAlgorithm), ("encrypted.pem", .encryptedKey), ("public.der", .notPEM),
            ]
            for (name, expected) in refused {
                #expect(throws: expected, "\(name)") { try P256PrivateKeyFile.signingKey(pem: try file(name)) }
            }
        }
    }
}
