import AppReceipt
import CryptoPrimitives
import Foundation
import PKCS7
import X509Certificates
import ReceiptTestSupport
import Testing
import TestHelpers

/// Apple's validation order on the real receipts: (2) signature and chain under the chosen policy
/// at the chosen time, (3) bundle id, (4) app version, (5) device hash. Expected values come from
/// the truth files and fixtures/README.md.
@Suite(.enabled(if: Fixtures.shouldRun))
struct FixtureValidationTests {
    static let appleReceipts = ["production", "sandbox-g5", "sandbox-legacy"]
    static let xcodeReceipts = ["xcode", "xcode-with-purchases"]

    /// identifierForVendor of the device sandbox-g5.der was issued to, as its 16 bytes.
    static let sandboxDevice: [UInt8] = Hex.bytes("956328D9CC6A47F4BE406953FB0AB6C7")

    static func receipt(_ name: String) throws -> AppReceipt {
        try AppReceipt(Fixtures.bytes("receipts/\(name).der"))
    }

    static func truth(_ name: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url("truth/\(name).json")))
        return try #require(object as? [String: Any])
    }

    /// `Oct  1 19:13:56 2024 GMT` (openssl's validity format in the truth files) as seconds since 1970.
    static func opensslTime(_ text: String) throws -> Int64 {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy"
        let parts = text.split(separator: " ").filter { $0 != "GMT" }.joined(separator: " ")
        let date = try #require(formatter.date(from: parts), "cannot parse \(text)")
        return Int64(date.timeIntervalSince1970)
    }

    /// The `not_after` of every certificate in a fixture's envelope.
    static func notAfters(_ name: String) throws -> [Int64] {
        let outer = try #require(try truth(name)["outer"] as? [String: Any])
        let certificates = try #require(outer["certificates"] as? [[String: Any]])
        return try certificates.map { try opensslTime(try #require($0["not_after"] as? String)) }
    }

    static func creationMilliseconds(_ name: String) throws -> Int64 {
        let fields = try #require(try truth(name)["fields"] as? [String: Any])
        return try #require((fields["receipt_creation_date_ms"] as? NSNumber)?.int64Value)
    }

    @Test(arguments: appleReceipts)
    func appleReceiptValidatesAtItsCreationDate(_ name: String) throws {
        let receipt = try Self.receipt(name)
        #expect(validationError(receipt, policy: .appStore) == nil)
        let created = instant(try Self.creationMilliseconds(name))
        #expect(receipt.creationDate == created)
        #expect(validationError(receipt, policy: .appStore, at: .date(created)) == nil)
        let verified = try receipt.validate()
        #expect(verified.chain.count == 3, "leaf, intermediate, Apple Root CA")
    }

    /// Every Apple signing certificate here has expired (fixtures/README.md): judged now, each fails.
    @Test(arguments: appleReceipts)
    func appleReceiptIsExpiredNow(_ name: String) throws {
        let receipt = try Self.receipt(name)
        let before = Int64(Date().timeIntervalSince1970)
        let error = validationError(receipt, policy: .appStore, at: .now)
        let after = Int64(Date().timeIntervalSince1970)
        guard case .untrusted(.expired(_, let notAfter, let at)) = error else {
            Issue.record("expected an expired certificate, got \(String(describing: error))")
            return
        }
        #expect(try Self.notAfters(name).contains(notAfter))
        #expect(notAfter < at)
        #expect((before ... after).contains(at))
    }

    @Test func productionIsExpiredIn2031() throws {
        let receipt = try Self.receipt("production")
        let at2031: Int64 = 1_924_992_000   // 2031-01-01T00:00:00Z
        let error = validationError(receipt, policy: .appStore, at: .date(instant(at2031 * 1000)))
        guard case .untrusted(.expired(_, let notAfter, let at)) = error else {
            Issue.record("expected expired, got \(String(describing: error))")
            return
        }
        #expect(at == at2031)
        #expect(try Self.notAfters("production").contains(notAfter))
    }

    @Test func productionIsNotYetValidBeforeItsLeaf() throws {
        // Leaf notBefore: Sep  2 19:13:57 2022 GMT; one second earlier.
        let notBefore = try Self.opensslTime("Sep  2 19:13:57 2022 GMT")
        let receipt = try Self.receipt("production")
        let error = validationError(receipt, policy: .appStore, at: .date(instant((notBefore - 1) * 1000)))
        guard case .untrusted(.notYetValid(_, let reported, let at)) = error else {
            Issue.record("expected notYetValid, got \(String(describing: error))")
            return
        }
        #expect(reported == notBefore)
        #expect(at == notBefore - 1)
        #expect(validationError(receipt, policy: .appStore, at: .date(instant(notBefore * 1000))) == nil)
    }

    @Test func productionBundleAndVersion() throws {
        let receipt = try Self.receipt("production")
        #expect(validationError(receipt, policy: .appStore, bundleIdentifier: "org.getpure.pure-iphone", appVersion: "15741") == nil)
        #expect(
            validationError(receipt, policy: .appStore, bundleIdentifier: "org.getpure.pure-ipad")
                == .bundleIdentifierMismatch(expected: "org.getpure.pure-ipad", found: "org.getpure.pure-iphone"))
        #expect(
            validationError(receipt, policy: .appStore, bundleIdentifier: "org.getpure.pure-iphone", appVersion: "15742")
                == .appVersionMismatch(expected: "15742", found: "15741"))
        // The expected bundle id is compared exactly (no case folding, no trimming).
        #expect(validationError(receipt, policy: .appStore, bundleIdentifier: "ORG.getpure.pure-iphone") != nil)
        #expect(validationError(receipt, policy: .appStore, bundleIdentifier: "org.getpure.pure-iphone ") != nil)
    }

    @Test func sandboxDeviceHashMatchesItsGUID() throws {
        let receipt = try Self.receipt("sandbox-g5")
        #expect(receipt.matchesDevice(Self.sandboxDevice))
        #expect(
            validationError(
                receipt, policy: .appStore, bundleIdentifier: "dev.bonzer.weeka.app", appVersion: "2",
                deviceIdentifier: Self.sandboxDevice) == nil)
        let zero = [UInt8](repeating: 0, count: 16)
        #expect(!receipt.matchesDevice(zero))
        #expect(validationError(receipt, policy: .appStore, deviceIdentifier: zero) == .deviceHashMismatch)
        var flipped = Self.sandboxDevice
        flipped[15] ^= 0x01
        #expect(!receipt.matchesDevice(flipped))
        // The GUID's text instead of its bytes is a common mistake: it must not match.
        #expect(!receipt.matchesDevice(Array("956328D9-CC6A-47F4-BE40-6953FB0AB6C7".utf8)))
        #expect(!receipt.matchesDevice([]))
        #expect(!receipt.matchesDevice(Array(Self.sandboxDevice.prefix(15))))
    }

    @Test func productionDoesNotMatchTheSandboxDevice() throws {
        #expect(!(try Self.receipt("production")).matchesDevice(Self.sandboxDevice))
    }

    /// A flipped byte of the payload (one letter of the bundle id) still decodes but no longer verifies.
    @Test(arguments: appleReceipts)
    func forgedPayloadIsUntrusted(_ name: String) throws {
        var bytes = try Fixtures.bytes("receipts/\(name).der")
        let original = try Self.receipt(name)
        let bundle = Array(original.bundleIdentifier.utf8)
        let at = try #require(offset(of: bundle, in: bytes))
        bytes[at] ^= 0x20   // lower case to upper case: still a UTF8String
        let forged = try AppReceipt(bytes)
        #expect(forged.bundleIdentifier != original.bundleIdentifier)
        guard case .untrusted(.signatureInvalid) = validationError(forged, policy: .appStore) else {
            Issue.record("expected signatureInvalid, got \(String(describing: validationError(forged, policy: .appStore)))")
            return
        }
    }

    /// The signature is the envelope's last element (no unsigned attributes); flip a byte inside it.
    @Test(arguments: appleReceipts)
    func forgedSignatureIsUntrusted(_ name: String) throws {
        var bytes = try Fixtures.bytes("receipts/\(name).der")
        bytes[bytes.count - 20] ^= 0x01
        let forged = try AppReceipt(bytes)
        guard case .untrusted(.signatureInvalid) = validationError(forged, policy: .appStore) else {
            Issue.record("expected signatureInvalid, got \(String(describing: validationError(forged, policy: .appStore)))")
            return
        }
    }

    @Test(arguments: xcodeReceipts)
    func xcodeReceiptNeedsTheXcodePolicy(_ name: String) throws {
        let receipt = try Self.receipt(name)
        #expect(receipt.environment == .xcode)
        guard case .untrusted = validationError(receipt, policy: .appStore) else {
            Issue.record("an Xcode receipt must never pass the App Store policy")
            return
        }
        #expect(validationError(receipt, policy: .xcodeTesting) == nil)
        // The StoreKit certificate is valid until 2040.
        #expect(validationError(receipt, policy: .xcodeTesting, at: .now) == nil)
        let verified = try receipt.validate(policy: .xcodeTesting)
        #expect(verified.chain.count == 1, "self-signed StoreKit certificate")
    }

    @Test(arguments: appleReceipts)
    func appleReceiptFailsTheXcodePolicy(_ name: String) throws {
        guard case .untrusted = validationError(try Self.receipt(name), policy: .xcodeTesting) else {
            Issue.record("an App Store receipt must not pass the Xcode policy")
            return
        }
    }

    @Test func appleReceiptFailsASyntheticAnchor() throws {
        guard case .untrusted = validationError(try Self.receipt("production"), policy: Synthetic.policy) else {
            Issue.record("production.der must not chain to the synthetic root")
            return
        }
    }

    /// Apple's order on a real receipt: a forged one with the wrong bundle id reports the forgery.
    @Test func forgeryIsReportedBeforeBundleMismatch() throws {
        var bytes = try Fixtures.bytes("receipts/sandbox-g5.der")
        bytes[bytes.count - 20] ^= 0x01
        let forged = try AppReceipt(bytes)
        guard
            case .untrusted = validationError(
                forged, policy: .appStore, bundleIdentifier: "com.other", appVersion: "9",
                deviceIdentifier: [0])
        else {
            Issue.record("expected untrusted first")
            return
        }
        let receipt = try Self.receipt("sandbox-g5")
        #expect(
            validationError(receipt, policy: .appStore, bundleIdentifier: "com.other", appVersion: "9", deviceIdentifier: [0])
                == .bundleIdentifierMismatch(expected: "com.other", found: "dev.bonzer.weeka.app"))
        #expect(
            validationError(
                receipt, policy: .appStore, bundleIdentifier: "dev.bonzer.weeka.app", appVersion: "9",
                deviceIdentifier: [0]) == .appVersionMismatch(expected: "9", found: "2"))
        #expect(
            validationError(
                receipt, policy: .appStore, bundleIdentifier: "dev.bonzer.weeka.app", appVersion: "2",
                deviceIdentifier: [0]) == .deviceHashMismatch)
    }
}

/// The same steps on synthetic receipts signed by `TestChain`, where every field is chosen.
struct SyntheticValidationTests {
    static let bytes: [UInt8] = Synthetic.sign(Payload.app())
    static let receipt: AppReceipt = {
        do { return try AppReceipt(bytes) } catch { preconditionFailure("synthetic receipt does not decode: \(error)") }
    }()

    @Test func validReceiptPassesEveryStep() throws {
        #expect(
            validationError(
                Self.receipt, bundleIdentifier: Payload.bundleIdentifier, appVersion: "7.1",
                deviceIdentifier: Payload.deviceIdentifier) == nil)
        let verified = try Self.receipt.validate(policy: Synthetic.policy)
        #expect(verified.chain.count == 3)
        #expect(Array(verified.chain[2].encoded) == Synthetic.rootCertificate)
        #expect(Array(verified.chain[0].encoded) == Synthetic.certificates[0])
    }

    @Test func optionalStepsAreSkippedWhenNotAsked() {
        // No app version and no device identifier: only signature, chain and bundle id.
        #expect(validationError(Self.receipt, bundleIdentifier: Payload.bundleIdentifier) == nil)
        #expect(validationError(Self.receipt) == nil)
    }

    @Test func defaultPolicyDoesNotTrustTheSyntheticRoot() throws {
        let error = validationError(Self.receipt, policy: .appStore)
        guard case .untrusted(.notTrusted(let certificate)) = error else {
            Issue.record("expected notTrusted, got \(String(describing: error))")
            return
        }
        #expect(Array(certificate.der) == Synthetic.rootCertificate)
        let expected = SHA256.hash(Synthetic.rootCertificate).bytes
        #expect(Hex.bytes(certificate.description) == expected)
        guard case .untrusted = validationError(Self.receipt, policy: .xcodeTesting) else {
            Issue.record("the Xcode policy must not trust the synthetic chain")
            return
        }
    }

    @Test func impersonatedAppleRootIsNotTrusted() throws {
        let chain = TestChain.appleRootImpersonation()
        let bytes = chain.receipt(TestReceipt())
        let receipt = try AppReceipt(bytes)
        guard case .untrusted = validationError(receipt, policy: .appStore) else {
            Issue.record("a self-made \"Apple Root CA\" must not be trusted")
            return
        }
    }

    @Test func flippedPayloadByteIsUntrusted() throws {
        var bytes = Self.bytes
        let version = TLV.utf8("7.1")
        let at = try #require(offset(of: version, in: bytes))
        bytes[at + 4] = UInt8(ascii: "2")   // "7.1" → "7.2"
        let forged = try AppReceipt(bytes)
        #expect(forged.appVersion == "7.2")
        guard case .untrusted(.signatureInvalid) = validationError(forged) else {
            Issue.record("expected signatureInvalid, got \(String(describing: validationError(forged)))")
            return
        }
    }

    @Test func eachMismatchIsItsOwnError() {
        #expect(
            validationError(Self.receipt, bundleIdentifier: "com.example.other")
                == .bundleIdentifierMismatch(expected: "com.example.other", found: Payload.bundleIdentifier))
        #expect(
            validationError(Self.receipt, bundleIdentifier: Payload.bundleIdentifier, appVersion: "7.10")
                == .appVersionMismatch(expected: "7.10", found: "7.1"))
        #expect(validationError(Self.receipt, deviceIdentifier: [UInt8](repeating: 0, count: 16)) == .deviceHashMismatch)
        #expect(Self.receipt.matchesDevice(Payload.deviceIdentifier))
        #expect(!Self.receipt.matchesDevice(Array(Payload.deviceIdentifier.reversed())))
    }

    @Test func earlierStepIsReported() throws {
        var forgedBytes = Self.bytes
        forgedBytes[forgedBytes.count - 1] ^= 0x80
        let forged = try AppReceipt(forgedBytes)
        let zero = [UInt8](repeating: 0, count: 16)
        guard case .untrusted = validationError(forged, bundleIdentifier: "x", appVersion: "y", deviceIdentifier: zero) else {
            Issue.record("untrusted must be reported before the bundle id")
            return
        }
        #expect(
            validationError(Self.receipt, bundleIdentifier: "x", appVersion: "y", deviceIdentifier: zero)
                == .bundleIdentifierMismatch(expected: "x", found: Payload.bundleIdentifier))
        #expect(
            validationError(Self.receipt, bundleIdentifier: Payload.bundleIdentifier, appVersion: "y", deviceIdentifier: zero)
                == .appVersionMismatch(expected: "y", found: "7.1"))
        #expect(
            validationError(Self.receipt, appVersion: "y", deviceIdentifier: zero)
                == .appVersionMismatch(expected: "y", found: "7.1"))
        guard case .untrusted = validationError(forged, deviceIdentifier: zero) else {
            Issue.record("untrusted must be reported before the device hash")
            return
        }
    }

    /// Synthetic certificates are valid 2015-01-01 … 2045-01-01 (TestCertificate defaults).
    @Test func explicitValidationTimes() {
        let notBefore = TestCertificate.defaultNotBefore
        let notAfter = TestCertificate.defaultNotAfter
        #expect(validationError(Self.receipt, at: .date(instant(notBefore * 1000))) == nil)
        #expect(validationError(Self.receipt, at: .date(instant(notAfter * 1000))) == nil, "notAfter is inclusive (RFC 5280 §4.1.2.5)")
        guard case .untrusted(.expired(_, notAfter, notAfter + 1)) = validationError(Self.receipt, at: .date(instant((notAfter + 1) * 1000))) else {
            Issue.record("expected expired one second after notAfter")
            return
        }
        guard case .untrusted(.notYetValid(_, notBefore, notBefore - 1)) = validationError(Self.receipt, at: .date(instant((notBefore - 1) * 1000)))
        else {
            Issue.record("expected notYetValid one second before notBefore")
            return
        }
        let now = Int64(Date().timeIntervalSince1970)
        if now < notAfter {
            #expect(validationError(Self.receipt, at: .now) == nil)
        }
    }

    /// By default the validation time is the receipt's creation date, whatever today is.
    @Test func defaultTimeIsTheCreationDate() throws {
        let late = try AppReceipt(Synthetic.sign(Payload.app(creationDate: "2046-06-01T00:00:00Z")))
        let lateSeconds: Int64 = 2_411_424_000   // 2046-06-01T00:00:00Z
        guard case .untrusted(.expired(_, TestCertificate.defaultNotAfter, lateSeconds)) = validationError(late) else {
            Issue.record("a receipt created after the chain expired must fail at its creation date: \(String(describing: validationError(late)))")
            return
        }
        #expect(validationError(late, at: .date(instant(1_700_000_000_000))) == nil)

        let early = try AppReceipt(Synthetic.sign(Payload.app(creationDate: "2014-06-01T00:00:00Z")))
        guard case .untrusted(.notYetValid(_, TestCertificate.defaultNotBefore, 1_401_580_800)) = validationError(early) else {
            Issue.record("a receipt created before the chain was valid must fail: \(String(describing: validationError(early)))")
            return
        }
        #expect(validationError(early, at: .date(instant(1_700_000_000_000))) == nil)
    }

    @Test func berEnvelopeValidatesLikeDER() throws {
        let ber = try AppReceipt(Synthetic.sign(Payload.app().encoded, berSegmentSize: 100))
        #expect(
            validationError(
                ber, bundleIdentifier: Payload.bundleIdentifier, appVersion: "7.1",
                deviceIdentifier: Payload.deviceIdentifier) == nil)
    }
}
