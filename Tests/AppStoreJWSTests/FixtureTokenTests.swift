import AppStoreJWS
import Foundation
import TestHelpers
import Testing
import X509Certificates

/// The tokens in `../shared/fixtures/jws`: Apple's real notification, Xcode's, and the tokens of
/// app-store-server-library's test CA, each under the policies that must and must not accept it.
@Suite(.enabled(if: Fixtures.shouldRun))
struct FixtureTokenTests {
    static let xcodeTokens = ["xcode-signed-transaction", "xcode-signed-renewal-info", "xcode-signed-app-transaction"]
    static let testCATokens = ["testca-transaction-info", "testca-renewal-info", "testca-test-notification"]

    static func token(_ name: String) throws -> String {
        let text = String(decoding: try Fixtures.bytes("jws/\(name).jws"), as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A token's own root (its last `x5c` entry) as a custom anchor: the test CA made two roots.
    static func ownRootPolicy(_ token: String) throws -> TrustPolicy {
        let jws = try CompactJWS(token)
        let root = try #require(jws.header.certificateChain?.last)
        return .custom(anchors: [TrustAnchor(certificate: root)], requiredIntermediateCount: 1)
    }

    @Test func realAppleNotificationVerifiesUnderTheAppStorePolicy() throws {
        let verified = try JWSVerifier().verifyNotification(try Self.token("apple-real-test-notification"))
        #expect(verified.payload.notificationType == "TEST")
        #expect(verified.payload.notificationUUID == "5e09dcfc-205e-4ea1-9883-96676f394992")
        #expect(verified.payload.data?.bundleId == "com.Abilities")
        #expect(verified.payload.data?.environment == "Sandbox")
        #expect(verified.payload.signedDate == UnixMilliseconds(1_662_122_492_884))
        #expect(verified.verified.validationTime == 1_662_122_492)
        #expect(verified.verified.chain.count == 3)
        #expect(verified.verified.chain.last?.fingerprint.description == TrustAnchor.appleRootCAG3Fingerprint)
        #expect(verified.verified.chain[0].subjectDescription.contains("Prod ECC Mac App Store and iTunes Store Receipt Signing"))
        #expect(verified.transaction == nil && verified.renewalInfo == nil)
    }

    @Test func realAppleNotificationFailsAtANowDateAfterItsLeafExpired() throws {
        let now: Int64 = 1_764_000_000   // 2025-11: the 2021 leaf expired in 2023
        #expect {
            _ = try JWSVerifier().verify(try Self.token("apple-real-test-notification"), at: now)
        } throws: { error in
            guard case .untrusted(.expired) = error as? JWSError else { return false }
            return true
        }
    }

    @Test func realAppleNotificationIsNotTrustedUnderTheXcodePolicy() throws {
        #expect(throws: JWSError.self) { _ = try JWSVerifier(policy: .xcodeSignedData).verify(try Self.token("apple-real-test-notification")) }
    }

    @Test(arguments: xcodeTokens)
    func xcodeTokensVerifyOnlyUnderTheXcodePolicy(name: String) throws {
        let token = try Self.token(name)
        let verified = try JWSVerifier(policy: .xcodeSignedData).verify(token)
        #expect(verified.chain.count == 1)
        #expect(verified.chain[0].fingerprint.description == TrustAnchor.storeKitTestingInXcodeFingerprint)
        let error = #expect(throws: JWSError.self) { _ = try JWSVerifier().verify(token) }
        #expect(error?.category == .notAuthentic)
        // Said in words, with the precise rule kept (issue 16).
        #expect(error == .untrustedOrigin(.xcodeTesting, policy: "appstore", rule: .unexpectedChainLength(expected: 3, found: 1)))
        #expect(error?.description.hasPrefix("signed by Xcode's StoreKit Testing certificate, which the App Store policy does not trust") == true)
    }

    @Test func appleTokenUnderTheXcodePolicyIsExplained() throws {
        let error = #expect(throws: JWSError.self) {
            _ = try JWSVerifier(policy: .xcodeSignedData).verify(try Self.token("apple-real-test-notification"))
        }
        guard case .untrustedOrigin(.appStore, "xcode", _) = error else {
            Issue.record("expected the App Store origin to be named, got \(String(describing: error))")
            return
        }
    }

    @Test func policiesWithTheirOwnAnchorsKeepTheirPlainErrors() throws {
        let token = try Self.token("xcode-signed-transaction")
        let error = #expect(throws: JWSError.self) {
            _ = try JWSVerifier(policy: try Self.ownRootPolicy(try Self.token("testca-test-notification"))).verify(token)
        }
        if case .untrustedOrigin = error { Issue.record("a custom policy's refusal was reworded") }
    }

    @Test(arguments: testCATokens)
    func testCATokensVerifyOnlyUnderACustomPolicyAnchoredAtTheirRoot(name: String) throws {
        let token = try Self.token(name)
        let error = #expect(throws: JWSError.self) { _ = try JWSVerifier().verify(token) }
        #expect(error?.category == .notAuthentic)
        #expect(throws: JWSError.self) { _ = try JWSVerifier(policy: .xcodeSignedData).verify(token) }
        let verified = try JWSVerifier(policy: try Self.ownRootPolicy(token)).verify(token)
        #expect(verified.chain.count == 3)
    }

    @Test func xcodeTransactionDecodesWithFractionalMilliseconds() throws {
        let transaction = try JWSVerifier(policy: .xcodeSignedData).verifyTransaction(try Self.token("xcode-signed-transaction"))
        #expect(transaction.productId == "pass.premium")
        #expect(transaction.purchaseDate == UnixMilliseconds(1_697_679_936_049))
        #expect(transaction.signedDate == UnixMilliseconds(1_697_679_936_056))
        #expect(transaction.type == "Auto-Renewable Subscription")
        #expect(transaction.isUpgraded == false)
        #expect(transaction.quantity == 1)
        #expect(transaction.environment == "Xcode")
        #expect(transaction.additionalFields["deviceVerification"] == .string("sGDnpg+ozb8uwDSuCDZ2oVZo1CKrbB8ujR8VxCxhykRwyBIK6x6XCyERm8yWrzE8"))
    }

    @Test func xcodeAppTransactionUsesItsReceiptCreationDate() throws {
        let app = try JWSVerifier(policy: .xcodeSignedData).verifyAppTransaction(try Self.token("xcode-signed-app-transaction"))
        #expect(app.bundleId == "com.example.naturelab.backyardbirds.example")
        #expect(app.receiptType == "Xcode")
        #expect(app.originalPurchaseDate == UnixMilliseconds(-62_135_769_600_000))
        #expect(app.receiptCreationDate == UnixMilliseconds(1_697_680_122_257))
    }
}
