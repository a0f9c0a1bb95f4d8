import AppStoreJWS
import CryptoPrimitives
import Foundation
import Testing
import X509Certificates

/// `receipt jwt`, `offer-signature` and `offer-jws` (issue 37): one line on standard output, the
/// same token as the library's `AppStoreSigner`, signatures that verify under the key's public
/// half; usage errors exit 64, key files that are not P-256 keys exit 2, each with one line on
/// standard error that shows nothing of the key.
@Suite struct SigningCommandTests {
    static let shared = ["--key-id", "2X9R4HXF34", "--bundle-id", "com.example.app"]
    static let issuer = ["--issuer", "57246542-96fe-1a63-e053-0824d011072a"]
    static let signer = AppStoreSigner(
        key: SigningKeyFiles.key, keyID: "2X9R4HXF34", issuerID: "57246542-96fe-1a63-e053-0824d011072a", bundleID: "com.example.app")
    static let nonce = "20FBA8A0-2B80-4A7D-A17F-85C1854727F8"

    /// Runs `receipt` with `--key` naming a file holding `key` (the test key by default); an
    /// argument `@name` is the path of `files[name]`.
    static func run(_ arguments: [String], key: String = SigningKeyFiles.p8, files: [String: String] = [:]) throws -> RunResult {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keyFile = directory.file("AuthKey_2X9R4HXF34.p8", text: key)
        for (name, text) in files { _ = directory.file(name, text: text) }
        let resolved = arguments.map { $0.hasPrefix("@") ? directory.url.appendingPathComponent(String($0.dropFirst())).path : $0 }
        // --key right after the command, so that a test can end the line with an option missing its value.
        return try Run.receipt(Array(resolved.prefix(1)) + ["--key", keyFile.path] + resolved.dropFirst())
    }

    /// The JSON object of a base64url JWS part.
    static func json(_ part: Substring) throws -> NSDictionary {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let data = try #require(Data(base64Encoded: text))
        return try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    /// Header and claims of a one-line token on standard output, after checking the line and the signature.
    static func decoded(_ result: RunResult) throws -> (header: NSDictionary, claims: NSDictionary) {
        expectRun(result, status: 0)
        #expect(result.output.hasSuffix("\n") && result.output.filter { $0 == "\n" }.count == 1)
        let parts = result.output.dropLast().split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        var signature = parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while signature.count % 4 != 0 { signature += "=" }
        let raw = try #require(Data(base64Encoded: signature))
        let digest = SHA256.hash(Array("\(parts[0]).\(parts[1])".utf8))
        #expect(SigningKeyFiles.key.publicKey.isValidSignature(rawRepresentation: [UInt8](raw), digest: digest))
        return (try json(parts[0]), try json(parts[1]))
    }

    static var header: NSDictionary { ["alg": "ES256", "kid": "2X9R4HXF34", "typ": "JWT"] }

    @Test func jwtIsTheLibrarysServerAPIToken() throws {
        let result = try Self.run(["jwt"] + Self.shared + Self.issuer + ["--issued-at", "1700000000"])
        let (header, claims) = try Self.decoded(result)
        #expect(header == Self.header)
        #expect(
            claims
                == [
                    "iss": "57246542-96fe-1a63-e053-0824d011072a", "iat": 1_700_000_000, "exp": 1_700_000_300,
                    "aud": "appstoreconnect-v1", "bid": "com.example.app",
                ])
        #expect(result.output == Self.signer.serverAPIToken(issuedAt: 1_700_000_000) + "\n")
        let custom = try Self.run(
            ["jwt"] + Self.shared + Self.issuer + ["--issued-at", "1700000000", "--lifetime", "3600", "--audience", "x"])
        #expect(custom.output == Self.signer.serverAPIToken(issuedAt: 1_700_000_000, lifetime: 3600, audience: "x") + "\n")
    }

    @Test func jwtIssuedAtDefaultsToNow() throws {
        let before = AppStoreSigner.currentTime()
        let (_, claims) = try Self.decoded(try Self.run(["jwt"] + Self.shared + Self.issuer))
        let iat = try #require(claims["iat"] as? Int64)
        #expect(iat >= before && iat <= AppStoreSigner.currentTime())
        #expect(claims["exp"] as? Int64 == iat + 300)
    }

    @Test func offerSignatureIsTheLibrarysAndVerifies() throws {
        for token in ["", "A1B2C3D4-0000-4000-8000-00000000ABCD"] {
            let result = try Self.run(
                ["offer-signature"] + Self.shared
                    + [
                        "--product", "com.example.monthly", "--offer", "WINBACK", "--app-account-token", token, "--nonce", Self.nonce,
                        "--timestamp", "1698148900000",
                    ])
            expectRun(result, status: 0)
            let expected = try Self.signer.promotionalOfferSignature(
                productID: "com.example.monthly", offerID: "WINBACK", appAccountToken: token, nonce: Self.nonce, timestamp: 1_698_148_900_000)
            #expect(result.output == expected + "\n")
            let der = try #require(Data(base64Encoded: String(result.output.dropLast())))
            let payload = [
                "com.example.app", "2X9R4HXF34", "com.example.monthly", "WINBACK", token.lowercased(), Self.nonce.lowercased(), "1698148900000",
            ].joined(separator: "\u{2063}")
            #expect(SigningKeyFiles.key.publicKey.isValidSignature(derEncoded: [UInt8](der), digest: SHA256.hash(Array(payload.utf8))))
        }
    }

    @Test func offerJWSPromotionalOffer() throws {
        let base = ["offer-jws", "promotional-offer"] + Self.shared + Self.issuer + ["--issued-at", "1700000000"]
        let (header, claims) = try Self.decoded(
            try Self.run(base + ["--product-id", "p", "--offer-identifier", "o", "--transaction-id", "7"]))
        #expect(header == Self.header)
        let nonce = try #require(claims["nonce"] as? String)
        #expect(nonce == nonce.lowercased() && UUID(uuidString: nonce) != nil)
        #expect(
            claims
                == [
                    "productId": "p", "offerIdentifier": "o", "transactionId": "7", "bid": "com.example.app",
                    "iss": "57246542-96fe-1a63-e053-0824d011072a", "aud": "promotional-offer", "iat": 1_700_000_000, "nonce": nonce,
                ])
        let (_, withoutTransaction) = try Self.decoded(try Self.run(base + ["--product-id", "p", "--offer-identifier", "o"]))
        #expect(withoutTransaction["transactionId"] == nil)
        #expect(withoutTransaction["nonce"] as? String != nonce)
    }

    @Test func offerJWSIntroductoryEligibility() throws {
        for allow in [true, false] {
            let (header, claims) = try Self.decoded(
                try Self.run(
                    ["offer-jws", "introductory-eligibility"] + Self.shared + Self.issuer
                        + ["--product-id", "p", "--allow-introductory-offer", "\(allow)", "--transaction-id", "7", "--issued-at", "5"]))
            #expect(header == Self.header)
            #expect(claims["allowIntroductoryOffer"] as? Bool == allow)
            #expect(claims["aud"] as? String == "introductory-offer-eligibility")
            #expect(claims["productId"] as? String == "p" && claims["transactionId"] as? String == "7" && claims["iat"] as? Int == 5)
        }
    }

    @Test func offerJWSAdvancedCommerceEncodesTheFileAsItIs() throws {
        let request = #"{"operation": "CREATE_SUBSCRIPTION", "descriptors": {"displayName": "Caf\u00e9"}}"#
        let (header, claims) = try Self.decoded(
            try Self.run(
                ["offer-jws", "advanced-commerce"] + Self.shared + Self.issuer + ["--request-json", "@request.json"],
                files: ["request.json": request]))
        #expect(header == Self.header)
        #expect(claims["aud"] as? String == "advanced-commerce-api")
        #expect(claims["request"] as? String == Data(request.utf8).base64EncodedString())
    }

    static let usageCases: [(arguments: [String], mentions: String)] = [
        (["jwt"] + shared, "--issuer"),
        (["jwt"] + issuer + ["--bundle-id", "b"], "--key-id"),
        (["jwt"] + shared + issuer + ["--frob"], "--frob"),
        (["jwt"] + shared + issuer + ["extra"], "extra"),
        (["jwt"] + shared + issuer + ["--issued-at", "soon"], "--issued-at"),
        (["jwt"] + shared + issuer + ["--issued-at", "-5"], "--issued-at"),
        (["jwt"] + shared + issuer + ["--issued-at", "99999999999999999999"], "--issued-at"),
        (["jwt"] + shared + issuer + ["--lifetime", "0"], "--lifetime"),
        (["jwt"] + shared + issuer + ["--lifetime", "3601"], "--lifetime"),
        (["jwt"] + shared + issuer + ["--audience"], "--audience"),
        (["jwt"] + shared + issuer + ["--key-id", "again"], "--key-id"),
        (["offer-signature"] + shared + ["--product", "p", "--offer", "o", "--nonce", nonce, "--timestamp", "1"], "--app-account-token"),
        (["offer-signature"] + shared + ["--product", "p", "--offer", "o", "--app-account-token", "", "--nonce", nonce], "--timestamp"),
        (
            ["offer-signature"] + shared + ["--product", "p", "--offer", "o", "--app-account-token", "", "--nonce", "nonce", "--timestamp", "1"],
            "UUID"
        ),
        (
            ["offer-signature"] + shared + ["--product", "p", "--offer", "o", "--app-account-token", "", "--nonce", nonce, "--timestamp", "1.5"],
            "--timestamp"
        ),
        (["offer-jws"] + shared + issuer, "promotional-offer"),
        (["offer-jws", "winback"] + shared + issuer, "winback"),
        (["offer-jws", "promotional-offer"] + shared + issuer + ["--product-id", "p"], "--offer-identifier"),
        (
            ["offer-jws", "promotional-offer"] + shared + issuer + ["--product-id", "p", "--offer-identifier", "o", "--request-json", "r"],
            "--request-json"
        ),
        (
            ["offer-jws", "introductory-eligibility"] + shared + issuer + ["--product-id", "p", "--transaction-id", "7"], "--allow-introductory-offer"
        ),
        (
            ["offer-jws", "introductory-eligibility"] + shared + issuer
                + ["--product-id", "p", "--allow-introductory-offer", "yes", "--transaction-id", "7"], "yes"
        ),
        (
            ["offer-jws", "introductory-eligibility"] + shared + issuer + ["--product-id", "p", "--allow-introductory-offer", "true"],
            "--transaction-id"
        ),
        (["offer-jws", "advanced-commerce"] + shared + issuer, "--request-json"),
        (["offer-jws", "advanced-commerce"] + shared + issuer + ["--request-json", "/nonexistent/request.json"], "/nonexistent/request.json"),
    ]

    @Test(arguments: 0 ..< usageCases.count)
    func usageError(_ index: Int) throws {
        let entry = Self.usageCases[index]
        expectRun(try Self.run(entry.arguments), status: 64, errorContains: [entry.mentions], "\(entry.arguments)")
    }

    @Test(arguments: ["", "[1]", "{\"a\":", "{\"a\":1,\"a\":2}"])
    func advancedCommerceRequestMustBeAJSONObject(_ request: String) throws {
        let result = try Self.run(
            ["offer-jws", "advanced-commerce"] + Self.shared + Self.issuer + ["--request-json", "@request.json"],
            files: ["request.json": request])
        expectRun(result, status: 2, errorContains: ["request.json", "JSON object"])
    }

    static let badKeys: [(name: String, file: String, mentions: String)] = [
        ("not a key", "hello, world\n", "not a PEM"),
        ("empty", "", "not a PEM"),
        ("certificate", SigningKeyFiles.pem("CERTIFICATE", [0x30, 0x00]), "no private key"),
        ("RSA PEM", SigningKeyFiles.pem("RSA PRIVATE KEY", [0x30, 0x00]), "RSA"),
        ("RSA PKCS#8", SigningKeyFiles.rsaPKCS8, "RSA"),
        ("P-384", SigningKeyFiles.p384, "P-384"),
        ("truncated PEM, no END line", String(SigningKeyFiles.p8.prefix(120)), "not a PEM"),
        (
            "truncated PEM body",
            { () -> String in
                let lines = SigningKeyFiles.p8.split(separator: "\n")
                return [lines[0], lines[1], lines.last!].joined(separator: "\n") + "\n"
            }(), "malformed"
        ),
        ("PEM body not base64", "-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n", "base64"),
        ("encrypted", SigningKeyFiles.pem("ENCRYPTED PRIVATE KEY", [0x30, 0x00]), "encrypted"),
    ]

    @Test(arguments: 0 ..< badKeys.count)
    func badKeyFileIsOneLineWithoutTheKey(_ index: Int) throws {
        let entry = Self.badKeys[index]
        for command in [
            ["jwt"] + Self.shared + Self.issuer,
            ["offer-signature"] + Self.shared
                + ["--product", "p", "--offer", "o", "--app-account-token", "", "--nonce", Self.nonce, "--timestamp", "1"],
            ["offer-jws", "promotional-offer"] + Self.shared + Self.issuer + ["--product-id", "p", "--offer-identifier", "o"],
        ] {
            let result = try Self.run(command, key: entry.file)
            expectRun(result, status: 2, errorContains: [entry.mentions, "AuthKey_2X9R4HXF34.p8"], "\(entry.name) \(command[0])")
            #expect(result.stdout.isEmpty)
            for secret in SigningKeyFiles.secretTexts { #expect(!result.stderr.contains(secret), "\(entry.name)") }
        }
    }

    @Test func missingKeyFileIsAUsageError() throws {
        let result = try Run.receipt(["jwt"] + Self.shared + Self.issuer + ["--key", "/nonexistent/AuthKey.p8"])
        expectRun(result, status: 64, errorContains: ["/nonexistent/AuthKey.p8", "no such file"])
    }

    @Test func derKeysAreReadToo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let der = directory.file("key.der", contents: SigningKeyFiles.pkcs8DER)
        let result = try Run.receipt(["jwt"] + Self.shared + Self.issuer + ["--issued-at", "1700000000", "--key", der.path])
        #expect(result.output == Self.signer.serverAPIToken(issuedAt: 1_700_000_000) + "\n")
    }

    @Test func helpShowsTheSigningCommands() throws {
        let result = try Run.receipt(["--help"])
        for command in ["receipt jwt --key FILE", "receipt offer-signature --key FILE", "receipt offer-jws promotional-offer"] {
            #expect(result.output.contains(command))
        }
    }
}
