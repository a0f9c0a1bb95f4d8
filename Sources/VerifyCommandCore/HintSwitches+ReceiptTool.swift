import X509Certificates

extension HintSwitches {
    /// The `receipt` tool's switches, as its refusal lines name them: `--root` replaces the
    /// anchors (a refusal says to verify without it), `--at receipt` judges at the creation date,
    /// `--policy` chooses the world.
    package static let receiptTool = HintSwitches(root: "--root", rerun: "verify", judgeAtCreation: "--at receipt (the default)") { origin, data in
        switch origin {
        case .xcodeTesting: return "to read a test \(data) use --policy xcode"
        case .appStore: return "to verify an App Store \(data) use --policy appstore (the default)"
        }
    }
}
