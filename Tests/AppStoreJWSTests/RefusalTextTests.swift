import AppStoreJWS
import Testing
import X509Certificates

/// The helpers the `receipt` tool and receipt-server's inspector share: telling a token from a
/// receipt (`CompactJWS.token(in:)`) and the line a person reads for a refused token
/// (`JWSError.refusalMessage`, with `SignerOrigin.hint(for:)` for data of the other world).
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

    @Test func malformedTokensSaySo() {
        let error = JWSError.notCompactSerialization
        #expect(error.refusalMessage == "malformed signed data: \(error)")
    }

    @Test func refusedTokensSayNotValid() {
        let error = JWSError.signatureInvalid(subject: "CN=Leaf")
        #expect(error.refusalMessage == "not valid: \(error)")
    }

    /// Data of the other world than the policy's gets the other `--policy` as advice.
    @Test func otherWorldTokensNameTheOtherPolicy() {
        let xcode = JWSError.untrustedOrigin(.xcodeTesting, policy: "appstore", rule: .rootNotTrusted(fingerprint: "00"))
        #expect(xcode.refusalMessage == "not valid: \(xcode); to read a test token use --policy xcode")
        let appStore = JWSError.untrustedOrigin(.appStore, policy: "xcode", rule: .rootNotTrusted(fingerprint: "00"))
        #expect(appStore.refusalMessage == "not valid: \(appStore); to verify an App Store token use --policy appstore (the default)")
        #expect(SignerOrigin.xcodeTesting.hint(for: "receipt") == "to read a test receipt use --policy xcode")
    }
}
