@testable import AppStoreJWS
import CryptoPrimitives
import Foundation
import ReceiptTestSupport
import TestHelpers
import Testing
import X509Certificates

/// Tokens built in Swift on a G3-shaped chain (P-384 root and intermediate, P-256 leaf): the
/// genuine one verifies, and every rule of `JWSVerifier` fails with its own error.
@Suite struct SyntheticTokenTests {
    static let chain = TestJWSChain()
    static let certificates = chain.certificates
    static let root = try! TrustAnchor(derEncoded: chain.rootCertificate)
    static let policy = TrustPolicy.appStoreSignedData(anchors: [root])
    static let verifier = JWSVerifier(policy: policy)
    /// 2024-03-01T00:00:00Z in milliseconds.
    static let signedDate: Int64 = 1_709_251_200_000
    static let transaction = """
        {"transactionId":"2000000123","originalTransactionId":"2000000100","bundleId":"com.example.app","productId":"pro.monthly",\
        "purchaseDate":1709000000000,"expiresDate":1711592000000,"type":"Auto-Renewable Subscription","environment":"Production",\
        "quantity":1,"price":4990,"currency":"EUR","signedDate":\(signedDate)}
        """

    static func token(_ payload: String = transaction, x5c: [[UInt8]]? = nil, algorithm: String = "ES256") -> String {
        chain.token(payload: payload, x5c: x5c ?? certificates, algorithm: algorithm)
    }

    static func error(_ token: String, policy: TrustPolicy = policy, at time: Int64? = nil) -> JWSError? {
        #expect(throws: JWSError.self) { _ = try JWSVerifier(policy: policy).verify(token, at: time) }
    }

    /// Replaces one of the three parts.
    static func replacingPart(_ index: Int, of token: String, with part: String) -> String {
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[index] = part
        return parts.joined(separator: ".")
    }

    @Test func genuineTokenVerifiesAndDecodes() throws {
        let verified = try Self.verifier.verify(Self.token())
        #expect(verified.chain.map { Array($0.encoded) } == Self.certificates)
        #expect(verified.validationTime == Self.signedDate / 1000)
        let transaction = try Self.verifier.verifyTransaction(Self.token(), expecting: .init(bundleId: "com.example.app", environment: "Production"))
        #expect(transaction.transactionId == "2000000123")
        #expect(transaction.expiresDate == UnixMilliseconds(1_711_592_000_000))
        #expect(transaction.price == 4990)
    }

    @Test(arguments: ["none", "HS256", "RS256", "ES384", "PS256", "es256"])
    func algorithmsOtherThanES256AreRefused(algorithm: String) {
        #expect(Self.error(Self.token(algorithm: algorithm)) == .unsupportedAlgorithm(algorithm))
    }

    @Test func absentAlgorithmIsRefused() {
        let token = TestJWS.token(header: "{\"x5c\":[]}", payload: Self.transaction, signer: TestECKeys.p256[0])
        #expect(Self.error(token) == .unsupportedAlgorithm(nil))
    }

    @Test func criticalHeaderParametersAreRefused() {
        let header = TestJWS.header(x5c: Self.certificates).dropLast() + ",\"crit\":[\"b64\"]}"
        let token = TestJWS.token(header: String(header), payload: Self.transaction, signer: TestECKeys.p256[0])
        #expect(Self.error(token) == .unsupportedCriticalHeader)
    }

    @Test func missingChainIsRefused() {
        let token = TestJWS.token(header: TestJWS.header(x5c: nil), payload: Self.transaction, signer: TestECKeys.p256[0])
        #expect(Self.error(token) == .missingCertificateChain)
    }

    @Test func chainsOfTwoOrFourCertificatesAreRefused() {
        let c = Self.certificates
        #expect(Self.error(Self.token(x5c: [c[0], c[2]])) == .unexpectedChainLength(expected: 3, found: 2))
        #expect(Self.error(Self.token(x5c: [c[0], c[1], c[1], c[2]])) == .unexpectedChainLength(expected: 3, found: 4))
    }

    @Test func embeddedAppleRootIsPinnedNotTakenFromTheToken() throws {
        // Under the default policy the synthetic root is not Apple Root CA - G3.
        let root = try Certificate(derEncoded: Self.certificates[2])
        #expect(Self.error(Self.token(), policy: .appStoreSignedData) == .rootNotTrusted(certificate: EncodedCertificate(root)))
    }

    @Test func lookAlikeRootWithTheSameNameIsNotTrusted() throws {
        var forged = TestJWSChain()
        forged.root.key = TestECKeys.p384[2]   // same subject, another key
        let token = forged.token(payload: Self.transaction)
        let lookAlike = try Certificate(derEncoded: forged.rootCertificate)
        #expect(lookAlike.subject == (try Certificate(derEncoded: Self.chain.rootCertificate)).subject)
        #expect(Self.error(token) == .rootNotTrusted(certificate: EncodedCertificate(lookAlike)))
    }

    @Test func leafWithoutTheReceiptSigningMarkerIsRefused() {
        var chain = TestJWSChain()
        chain.leaf.extensions.removeAll { $0.oid == OIDs.appleReceiptSigningExtension }
        let error = Self.error(chain.token(payload: Self.transaction))
        #expect(error == .untrusted(.missingAppleExtension(subject: chain.leaf.certificateName, oid: OIDs.appleReceiptSigningExtension)))
    }

    @Test func intermediateWithoutTheWWDRMarkerIsRefused() {
        var chain = TestJWSChain()
        chain.intermediate.extensions.removeAll { $0.oid == OIDs.appleWWDRIntermediateExtension }
        let error = Self.error(chain.token(payload: Self.transaction))
        #expect(error == .untrusted(.missingAppleExtension(subject: chain.intermediate.certificateName, oid: OIDs.appleWWDRIntermediateExtension)))
    }

    @Test func markersSwappedBetweenLeafAndIntermediateAreRefused() {
        var chain = TestJWSChain()
        chain.leaf.extensions.removeAll { $0.oid == OIDs.appleReceiptSigningExtension }
        chain.leaf.extensions.append(.marker(OIDs.appleWWDRIntermediateExtension))
        chain.intermediate.extensions.removeAll { $0.oid == OIDs.appleWWDRIntermediateExtension }
        chain.intermediate.extensions.append(.marker(OIDs.appleReceiptSigningExtension))
        guard case .untrusted(.missingAppleExtension) = Self.error(chain.token(payload: Self.transaction)) else {
            Issue.record("expected a missing Apple extension")
            return
        }
    }

    @Test func leafExpiredAtTheSignedDateIsRefused() {
        var chain = TestJWSChain()
        chain.leaf.notAfter = Self.signedDate / 1000 - 1
        guard case .untrusted(.expired(let subject, _, let at)) = Self.error(chain.token(payload: Self.transaction)) else {
            Issue.record("expected expiry")
            return
        }
        #expect(subject == chain.leaf.certificateName && at == Self.signedDate / 1000)
    }

    @Test func validityIsJudgedAtTheCallersTimeWhenGiven() {
        let afterExpiry = TestCertificate.defaultNotAfter + 1
        guard case .untrusted(.expired) = Self.error(Self.token(), at: afterExpiry) else {
            Issue.record("expected expiry at the caller's time")
            return
        }
    }

    @Test func payloadWithoutSignedDateNeedsAnExplicitTime() throws {
        let token = Self.token("{\"transactionId\":\"1\"}")
        #expect(Self.error(token) == .missingSignedDate)
        _ = try Self.verifier.verify(token, at: Self.signedDate / 1000)
    }

    @Test func changedHeaderOrPayloadBreaksTheSignature() {
        let token = Self.token()
        let subject = Self.chain.leaf.certificateName
        let otherPayload = TestJWS.base64URL(Array(Self.transaction.replacingOccurrences(of: "4990", with: "1").utf8))
        #expect(Self.error(Self.replacingPart(1, of: token, with: otherPayload)) == .signatureInvalid(subject: subject))
        let header = TestJWS.header(x5c: Self.certificates).dropLast() + ",\"kid\":\"x\"}"
        #expect(Self.error(Self.replacingPart(0, of: token, with: TestJWS.base64URL(Array(header.utf8)))) == .signatureInvalid(subject: subject))
    }

    /// r and s must lie in [1, n − 1] (FIPS 186-5 §6.4.2 step 1). A high s (above n/2) is valid
    /// ECDSA and is accepted: ES256 (RFC 7518 §3.4) does not ask for low s, and real signers
    /// produce both (two of the test CA's tokens in the shared fixtures have a high s).
    @Test func zeroOrOutOfRangeSignatureValuesAreRefusedAndHighSIsValid() throws {
        let token = Self.token()
        let signature = try #require(JWSTestBytes.signature(of: token))
        let subject = Self.chain.leaf.certificateName
        let zeroR = [UInt8](repeating: 0, count: 32) + signature[32...]
        let zeroS = Array(signature[..<32]) + [UInt8](repeating: 0, count: 32)
        for bad in [zeroR, zeroS, Array(signature[..<32]) + JWSTestBytes.p256Order] {
            #expect(Self.error(Self.replacingPart(2, of: token, with: TestJWS.base64URL(bad))) == .signatureInvalid(subject: subject))
        }
        let mirrored = Array(signature[..<32]) + JWSTestBytes.subtractFromP256Order(Array(signature[32...]))
        _ = try Self.verifier.verify(Self.replacingPart(2, of: token, with: TestJWS.base64URL(mirrored)))
    }

    @Test func signatureOfTheWrongLengthIsMalformed() {
        let token = Self.token()
        #expect(
            Self.error(Self.replacingPart(2, of: token, with: TestJWS.base64URL([UInt8](repeating: 1, count: 63)))) == .invalidSignatureLength(63))
        #expect(
            Self.error(Self.replacingPart(2, of: token, with: TestJWS.base64URL([UInt8](repeating: 1, count: 72)))) == .invalidSignatureLength(72))
    }

    @Test func base64URLWithPaddingOrStandardCharactersIsMalformed() {
        let token = Self.token()
        let parts = token.split(separator: ".").map(String.init)
        #expect(Self.error(parts[0] + "=." + parts[1] + "." + parts[2]) == .invalidBase64URL(.header))
        let standard = parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if standard != parts[2] { #expect(Self.error(parts[0] + "." + parts[1] + "." + standard) == .invalidBase64URL(.signature)) }
        #expect(Self.error(parts[0] + "." + parts[1] + "+." + parts[2]) == .invalidBase64URL(.payload))
        #expect(Self.error(parts[0] + ". " + parts[1] + "." + parts[2]) == .invalidBase64URL(.payload))
    }

    @Test func partCountsOtherThanThreeAreMalformed() {
        let token = Self.token()
        #expect(Self.error(token + ".") == .notCompactSerialization)
        #expect(Self.error(token + "." + "AAAA") == .notCompactSerialization)
        #expect(Self.error(String(token.prefix { $0 != "." })) == .notCompactSerialization)
        #expect(Self.error("") == .notCompactSerialization)
    }

    @Test func payloadThatIsNotJSONIsMalformed() {
        let token = Self.token("{\"transactionId\":")
        guard case .invalidJSON(.payload, _) = Self.error(token) else {
            Issue.record("expected invalid JSON in the payload")
            return
        }
    }

    @Test func nullPayloadVerifiesAsASignatureButIsNoTransaction() throws {
        let token = Self.token("null")
        let verified = try Self.verifier.verify(token, at: Self.signedDate / 1000)
        #expect(verified.payload == Array("null".utf8))
        #expect(throws: JWSError.payload(.notAnObject(.null))) {
            _ = try Self.verifier.verifyTransaction(token, at: Self.signedDate / 1000)
        }
        #expect(Self.error(token) == .missingSignedDate)
    }

    /// A token whose payload's signedDate is Int64.min milliseconds verifies its signature, then
    /// fails at the chain (no certificate is valid then) instead of trapping.
    @Test func signedDateAtInt64MinIsJudgedNotTrapped() throws {
        for payload in [#"{"signedDate":-9223372036854775808}"#, #"{"receiptCreationDate":-9223372036854775807.5}"#] {
            let error = #expect(throws: JWSError.self) { _ = try Self.verifier.verify(Self.token(payload)) }
            guard case .untrusted(.notYetValid(_, _, let at))? = error else {
                Issue.record("\(payload): \(String(describing: error))")
                continue
            }
            #expect(at == Int64.min / 1000 - 1)
        }
    }

    @Test func unexpectedBundleIdOrEnvironmentIsItsOwnError() {
        #expect(throws: JWSError.unexpectedBundleId(expected: "com.other", found: "com.example.app")) {
            _ = try Self.verifier.verifyTransaction(Self.token(), expecting: .init(bundleId: "com.other"))
        }
        #expect(throws: JWSError.unexpectedEnvironment(expected: "Sandbox", found: "Production")) {
            _ = try Self.verifier.verifyTransaction(Self.token(), expecting: .init(environment: "Sandbox"))
        }
    }

    @Test func notificationsVerifyTheirNestedTokensAndCatchATamperedOne() throws {
        let renewal = Self.token("{\"originalTransactionId\":\"2000000100\",\"autoRenewStatus\":1,\"signedDate\":\(Self.signedDate)}")
        let notification = { (transaction: String) in
            Self.token(
                """
                {"notificationType":"DID_RENEW","notificationUUID":"6f1e","data":{"bundleId":"com.example.app","appAppleId":42,\
                "environment":"Production","signedTransactionInfo":"\(transaction)","signedRenewalInfo":"\(renewal)"},\
                "version":"2.0","signedDate":\(Self.signedDate)}
                """)
        }
        let verified = try Self.verifier.verifyNotification(notification(Self.token()), expecting: .init(bundleId: "com.example.app", appAppleId: 42))
        #expect(verified.transaction?.transactionId == "2000000123")
        #expect(verified.renewalInfo?.autoRenewStatus == 1)
        #expect(throws: JWSError.unexpectedAppAppleId(expected: 7, found: 42)) {
            _ = try Self.verifier.verifyNotification(notification(Self.token()), expecting: .init(appAppleId: 7))
        }

        let inner = Self.token()
        let tampered = Self.replacingPart(
            1, of: inner, with: TestJWS.base64URL(Array(Self.transaction.replacingOccurrences(of: "4990", with: "1").utf8)))
        let error = #expect(throws: JWSError.self) { _ = try Self.verifier.verifyNotification(notification(tampered)) }
        #expect(error == .nested(member: "data.signedTransactionInfo", .signatureInvalid(subject: Self.chain.leaf.certificateName)))
        #expect(error?.category == .notAuthentic)
    }

    /// `RESCIND_CONSENT` (2025-12) carries `appData.signedAppTransactionInfo`: verified like the
    /// outer token, so a genuine notification carrying an app transaction signed by another chain
    /// is refused whole, naming the member.
    @Test func notificationsVerifyTheirNestedAppTransaction() throws {
        let appTransaction = Self.token(
            """
            {"bundleId":"com.example.app","appAppleId":42,"receiptType":"Production","appTransactionId":"704000000000000001",\
            "originalApplicationVersion":"1.0","receiptCreationDate":\(Self.signedDate),"originalPurchaseDate":1700000000000,\
            "signedDate":\(Self.signedDate)}
            """)
        let notification = { (inner: String) in
            Self.token(
                """
                {"notificationType":"RESCIND_CONSENT","notificationUUID":"7a2f","appData":{"bundleId":"com.example.app",\
                "appAppleId":42,"environment":"Production","signedAppTransactionInfo":"\(inner)"},\
                "version":"2.0","signedDate":\(Self.signedDate)}
                """)
        }
        let verified = try Self.verifier.verifyNotification(notification(appTransaction), expecting: .init(bundleId: "com.example.app"))
        #expect(verified.appTransaction?.bundleId == "com.example.app" && verified.transaction == nil)
        #expect(verified.appTransaction?.appTransactionId == "704000000000000001")

        // The same shape and names under another root: not the anchor the policy trusts.
        let foreign = TestJWSChain(rootName: "Someone Else's Root CA - G3")
        let forged = foreign.token(payload: String(decoding: Self.payload(of: appTransaction), as: UTF8.self), x5c: foreign.certificates)
        let error = #expect(throws: JWSError.self) { _ = try Self.verifier.verifyNotification(notification(forged)) }
        guard case .nested(let member, _) = error else {
            Issue.record("expected a nested refusal, got \(String(describing: error))")
            return
        }
        #expect(member == "appData.signedAppTransactionInfo" && error?.category == .notAuthentic)
    }

    /// A token's payload bytes.
    static func payload(of token: String) -> [UInt8] {
        let part = String(token.split(separator: ".")[1])
        let padded =
            part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            + String(repeating: "=", count: (4 - part.count % 4) % 4)
        return Array(Data(base64Encoded: padded)!)
    }

    @Test func linksAreRememberedAcrossTokens() throws {
        let cache = VerifiedLinkCache()
        let verifier = JWSVerifier(policy: Self.policy, linkStore: cache)
        _ = try verifier.verify(Self.token())
        #expect(cache.count == 2)
        _ = try verifier.verify(Self.token("{\"transactionId\":\"9\",\"signedDate\":\(Self.signedDate)}"))
        #expect(cache.count == 2)
    }

    /// The link cache keeps the signing certificate's key, with its verification table, only once
    /// a token's whole path has verified; later tokens are verified with that key, and a tampered
    /// one still fails.
    @Test func signingKeyIsRememberedOnlyAfterThePathVerifies() throws {
        let cache = VerifiedLinkCache()
        let verifier = JWSVerifier(policy: Self.policy, linkStore: cache)
        let leaf = try Certificate(derEncoded: Self.certificates[0])
        // In 1970 the certificates were not yet valid: the signature verifies, the path does not.
        #expect(throws: JWSError.self) { _ = try verifier.verify(Self.token(), at: 1_000) }
        #expect(cache.signingKey(of: leaf) == nil)
        _ = try verifier.verify(Self.token())
        let remembered = try #require(cache.signingKey(of: leaf))
        #expect(remembered.hasVerificationTable)
        #expect(remembered == (try leaf.ecdsaPublicKey()))
        _ = try verifier.verify(Self.token("{\"transactionId\":\"10\",\"signedDate\":\(Self.signedDate)}"))
        let tampered = Self.replacingPart(1, of: Self.token(), with: TestJWS.base64URL(Array("{\"transactionId\":\"11\"}".utf8)))
        #expect(throws: JWSError.signatureInvalid(subject: Self.chain.leaf.certificateName)) { _ = try verifier.verify(tampered) }
    }

    /// The header cache keeps a header only once its token verified, and a token with a kept
    /// header answers exactly as without the cache: valid, tampered in its payload or signature,
    /// broken base64, or verified at a time its path is not valid.
    @Test func rememberedHeadersChangeNoAnswer() throws {
        let headers = JWSHeaderCache()
        let cached = JWSVerifier(policy: Self.policy, linkStore: VerifiedLinkCache(), headerCache: headers)
        let plain = JWSVerifier(policy: Self.policy)
        let genuine = Self.token()
        let forged = Self.replacingPart(2, of: genuine, with: TestJWS.base64URL([UInt8](repeating: 7, count: 64)))
        #expect(throws: JWSError.self) { _ = try cached.verify(forged) }
        #expect(headers.count == 0, "a token that failed leaves no header")
        _ = try cached.verify(genuine)
        #expect(headers.count == 1)
        // The next token with that header takes it, and SHA-256's state after it, from the cache.
        let parsed = try CompactJWS(Array(Self.token("{\"transactionId\":\"14\"}").utf8)) { headers.entry(for: $0) }
        #expect(parsed.hashedHeader != nil)
        func outcome(_ verifier: JWSVerifier, _ token: String, at time: Int64? = nil) -> String {
            do {
                let verified = try verifier.verify(token, at: time)
                return "verified \(verified.payload) at \(verified.validationTime)"
            } catch {
                return "\(error)"
            }
        }
        let other = Self.token("{\"transactionId\":\"12\",\"signedDate\":\(Self.signedDate)}")
        let cases: [(String, Int64?)] = [
            (genuine, nil), (other, nil), (forged, nil), (genuine, 1_000),
            (Self.replacingPart(1, of: genuine, with: TestJWS.base64URL(Array("{\"transactionId\":\"13\"}".utf8))), nil),
            (Self.replacingPart(1, of: genuine, with: "@@@"), nil),
            (Self.replacingPart(2, of: genuine, with: "@@@"), nil),
            (Self.replacingPart(2, of: genuine, with: ""), nil),
            (genuine + ".", nil),
        ]
        for (token, time) in cases {
            #expect(outcome(cached, token, at: time) == outcome(plain, token, at: time))
        }
        #expect(headers.count == 1, "one header text among all these tokens")
    }
}

/// Byte helpers for signature edits.
enum JWSTestBytes {
    /// The P-256 group order n (SEC 2 §2.4.2), big-endian.
    static let p256Order: [UInt8] = Hex.bytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")

    static func signature(of token: String) -> [UInt8]? {
        guard let part = token.split(separator: ".").last else { return nil }
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text).map { [UInt8]($0) }
    }

    /// n − s for a 32-byte s < n.
    static func subtractFromP256Order(_ s: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            var difference = Int(p256Order[index]) - Int(s[index]) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 256 }
            result[index] = UInt8(difference)
        }
        return result
    }
}

extension TestCertificate {
    /// The subject as the verifier describes it in errors.
    var subjectDescription: String { DistinguishedName.describe(subjectName) }
    /// The subject as errors carry it: its DER.
    var certificateName: CertificateName { CertificateName(der: ArraySlice(subjectName)) }
}
