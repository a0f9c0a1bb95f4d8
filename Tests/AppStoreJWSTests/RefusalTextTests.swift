import AppStoreJWS
import ReceiptTestSupport
import Testing
import X509Certificates

/// The helpers the `receipt` tool and receipt-server's inspector share: telling a token from a
/// receipt (`CompactJWS.token(in:)`) and the line a person reads for a refused token
/// (`JWSError.refusalMessage(policy:switches:)`, with `SignerOrigin.hint(for:switches:)` for data
/// of the other world, in the words of the program's `HintSwitches`; the `receipt` tool's own
/// words are checked in VerifyCommandCoreTests, receipt-server's in its inspector tests).
@Suite("Token detection and refusal text")
struct RefusalTextTests {
    @Test func tokenIsTextStartingEyJWithSurroundingWhitespaceRemoved() {
        #expect(CompactJWS.token(in: Array(" \n\teyJhbGc.x.y\r\n".utf8)) == Array("eyJhbGc.x.y".utf8))
        #expect(CompactJWS.token(in: Array("eyJ".utf8)) == Array("eyJ".utf8))
        // A receipt (DER starts 0x30), its base64 (`MI…`), blank input and a lower-case variant are not tokens.
        #expect(CompactJWS.token(in: [0x30, 0x82, 0x01, 0x00]) == nil)
        #expect(CompactJWS.token(in: Array("MIIT...".utf8)) == nil)
        #expect(CompactJWS.token(in: Array(" \n ".utf8)) == nil)
        #expect(CompactJWS.token(in: []) == nil)
        #expect(CompactJWS.token(in: Array("eyj.x.y".utf8)) == nil)
        #expect(CompactJWS.token(in: Array("x eyJ.x.y".utf8)) == nil, "only whitespace may come before the token")
    }

    /// A program's switches, made up: the advice must be the program's words around the facts.
    static let switches = HintSwitches(root: "-R", rerun: "run me", judgeAtCreation: nil) { origin, data in
        "\(origin == .xcodeTesting ? "choose xcode" : "choose appstore") for this \(data)"
    }

    /// A certificate to name in errors.
    static let root = TrustAnchor.appleRootCAG3!.certificate

    @Test func malformedTokensSaySo() {
        let error = JWSError.notCompactSerialization
        #expect(error.refusalMessage(policy: nil, switches: Self.switches) == "malformed signed data: \(error)")
        #expect(error.refusalMessage(policy: .appStoreSignedData, switches: Self.switches) == "malformed signed data: \(error)")
    }

    @Test func refusedTokensSayNotValid() {
        let error = JWSError.signatureInvalid(subject: Self.root.subjectName)
        #expect(error.refusalMessage(policy: nil, switches: Self.switches) == "not valid: \(error)")
        #expect(error.description == "signature invalid (CN=Apple Root CA - G3,OU=Apple Certification Authority,O=Apple Inc.,C=US)")
    }

    /// Data of the other world than the policy's gets the program's advice for it.
    @Test func otherWorldTokensNameTheOtherPolicy() {
        let rule = JWSError.rootNotTrusted(certificate: EncodedCertificate(Self.root))
        let xcode = JWSError.untrustedOrigin(.xcodeTesting, policy: "appstore", rule: rule)
        #expect(xcode.refusalMessage(policy: nil, switches: Self.switches) == "not valid: \(xcode); choose xcode for this token")
        let appStore = JWSError.untrustedOrigin(.appStore, policy: "xcode", rule: rule)
        #expect(
            appStore.refusalMessage(policy: .xcodeSignedData, switches: Self.switches) == "not valid: \(appStore); choose appstore for this token")
        #expect(SignerOrigin.xcodeTesting.hint(for: "receipt", switches: Self.switches) == "choose xcode for this receipt")
    }

    /// A last certificate that is no anchor: the hint says where the chain had to end, and, when
    /// the operator's own anchors (`switches.root`) replaced the embedded one, how to trust it.
    @Test func untrustedRootsSayWhereTheChainHadToEnd() throws {
        let error = JWSError.rootNotTrusted(certificate: EncodedCertificate(Self.root))
        #expect(error.description == "not trusted: x5c ends at certificate SHA-256 \(TrustAnchor.appleRootCAG3Fingerprint.lowercased())")
        #expect(
            error.refusalMessage(policy: .appStoreSignedData, switches: Self.switches)
                == "not valid: \(error); the chain must end at Apple Root CA - G3; it ends at Apple Root CA - G3")
        let own = try TrustAnchor(derEncoded: TestJWSChain().rootCertificate)
        let replaced = TrustPolicy.appStoreSignedData(anchors: [own])
        let prefix = String(own.fingerprint.description.prefix(16))
        #expect(
            error.refusalMessage(policy: replaced, switches: Self.switches)
                == "not valid: \(error); the chain must end at the -R certificate SHA-256 \(prefix)…, which replaces Apple's root certificate; "
                + "it ends at Apple Root CA - G3: run me without -R to trust it")
    }
}
