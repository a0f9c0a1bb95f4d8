import AppReceipt
import X509Certificates

/// What a newcomer should do after `verify` refuses a receipt, when the refusal says: one clause
/// appended to the stderr line after `; `. The error keeps the precise rule; this is only advice.
enum RefusalHint {
    /// The stderr line for a refused receipt: the reason, then the hint when there is one.
    static func message(_ error: ReceiptValidationError, time: ValidationTime) -> String {
        guard let hint = hint(error, time: time) else { return "not valid: \(error)" }
        return "not valid: \(error); \(hint)"
    }

    static func hint(_ error: ReceiptValidationError, time: ValidationTime) -> String? {
        guard case .untrusted(let reason) = error else { return nil }
        switch reason {
        case .untrustedOrigin(let origin, _, _):
            return hint(for: origin, data: "receipt")
        case .expired where time == .now, .notYetValid where time == .now:
            return "Apple's signing certificates expire while their receipts stay valid: --at receipt (the default) judges them at the receipt's creation date"
        default:
            return nil
        }
    }

    /// What to do with `data` (a receipt, a token) from the other world than the policy trusts:
    /// the other `--policy`. For receipts and StoreKit 2 signed data alike.
    static func hint(for origin: SignerOrigin, data: String) -> String {
        switch origin {
        case .xcodeTesting: return "to read a test \(data) use --policy xcode"
        case .appStore: return "to verify an App Store \(data) use --policy appstore (the default)"
        }
    }
}
