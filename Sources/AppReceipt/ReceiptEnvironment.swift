/// Attribute 0, the environment the receipt was issued for.
public enum ReceiptEnvironment: Sendable, Hashable {
    /// `Production`, `ProductionSandbox`, `Sandbox`, `ProductionVPP`, `ProductionVPPSandbox` and
    /// `Xcode` (StoreKit testing in Xcode).
    case production, productionSandbox, sandbox, productionVPP, productionVPPSandbox, xcode
    /// A value not documented at the time of writing, kept as written.
    case other(String)

    init(_ text: String) {
        switch text {
        case "Production": self = .production
        case "ProductionSandbox": self = .productionSandbox
        case "Sandbox": self = .sandbox
        case "ProductionVPP": self = .productionVPP
        case "ProductionVPPSandbox": self = .productionVPPSandbox
        case "Xcode": self = .xcode
        default: self = .other(text)
        }
    }

    /// The text the receipt carries.
    public var rawValue: String {
        switch self {
        case .production: return "Production"
        case .productionSandbox: return "ProductionSandbox"
        case .sandbox: return "Sandbox"
        case .productionVPP: return "ProductionVPP"
        case .productionVPPSandbox: return "ProductionVPPSandbox"
        case .xcode: return "Xcode"
        case .other(let text): return text
        }
    }

    /// `environment` as `verifyReceipt` reported it: Production, Sandbox or Xcode.
    public var verifyReceiptName: String {
        switch self {
        case .production, .productionVPP: return "Production"
        case .xcode: return "Xcode"
        case .productionSandbox, .sandbox, .productionVPPSandbox: return "Sandbox"
        case .other(let text): return text
        }
    }
}
