import ReceiptTestSupport
import Testing
import VerifyCommandCore
import X509Certificates

/// The `receipt` tool's switches (`HintSwitches.receiptTool`): the library states where a chain
/// had to end and where it ends; the tool's words name `--root` and `--policy`.
@Suite struct ToolHintSwitchesTests {
    static let switches = HintSwitches.receiptTool
    static let appleRoot = EncodedCertificate(TrustAnchor.appleRootCA!.certificate)

    /// `atNowReadsTheGivenClock` reads the whole line this completes.
    @Test func judgingAtCreationNamesTheAtSwitch() {
        #expect(Self.switches.judgeAtCreation == "--at receipt (the default)")
    }

    @Test func otherOriginAdviceNamesThePolicySwitch() {
        #expect(SignerOrigin.xcodeTesting.hint(for: "receipt", switches: Self.switches) == "to read a test receipt use --policy xcode")
        #expect(SignerOrigin.xcodeTesting.hint(for: "token", switches: Self.switches) == "to read a test token use --policy xcode")
        #expect(
            SignerOrigin.appStore.hint(for: "receipt", switches: Self.switches)
                == "to verify an App Store receipt use --policy appstore (the default)")
        #expect(
            SignerOrigin.appStore.hint(for: "token", switches: Self.switches) == "to verify an App Store token use --policy appstore (the default)")
    }

    @Test func untrustedRootAdviceNamesTheRootSwitch() throws {
        let own = try TrustAnchor(derEncoded: TestChain().rootCertificate)
        let prefix = String(own.fingerprint.description.prefix(16))
        #expect(
            TrustExplanation.notTrustedHint(certificate: Self.appleRoot, policy: .appStore(anchors: [own]), switches: Self.switches)
                == "the chain must end at the --root certificate SHA-256 \(prefix)…, which replaces Apple's root certificate; "
                + "it ends at Apple Root CA: verify without --root to trust it")
        let two = TrustPolicy.appStore(anchors: [own, TrustAnchor.appleRootCAG3!])
        #expect(
            TrustExplanation.anchors(of: two, switches: Self.switches)
                == "the --root certificates SHA-256 \(prefix)…, \(TrustAnchor.appleRootCAG3Fingerprint.prefix(16))…, which replace Apple's root certificate"
        )
        // The embedded anchors need no switch: the advice names none.
        let foreign = EncodedCertificate(der: TestChain().rootCertificate[...])
        #expect(
            TrustExplanation.notTrustedHint(certificate: foreign, policy: .appStore, switches: Self.switches) == "the chain must end at Apple Root CA"
        )
        #expect(
            TrustExplanation.notTrustedHint(certificate: Self.appleRoot, policy: .xcodeTesting, switches: Self.switches)
                == "the chain must end at Xcode's StoreKit Testing certificate; it ends at Apple Root CA")
    }
}
