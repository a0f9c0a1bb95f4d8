import X509Certificates

extension HintSwitches {
    /// receipt-server's switches for receipts, as the inspector's refusal messages name them:
    /// `--root` replaces the receipts' anchors (a refusal says to start the server without it),
    /// `--allow-xcode` admits Xcode's test data at the sandbox endpoint; App Store data has no
    /// switch. The server judges validity at the data's own dates, never now, so it has no switch
    /// for that.
    static let receiptServer = server(root: "--root")

    /// The same for StoreKit 2 tokens, whose anchors `--root-g3` replaces.
    static let receiptServerTokens = server(root: "--root-g3")

    private static func server(root: String) -> HintSwitches {
        HintSwitches(root: root, rerun: "start the server", judgeAtCreation: nil) { origin, data in
            switch origin {
            case .xcodeTesting: return "to accept Xcode test \(data)s start receipt-server with --allow-xcode and send them to the sandbox endpoint"
            case .appStore: return "App Store \(data)s are verified under the App Store policy, whatever they claim"
            }
        }
    }
}
