import X509Certificates

/// What a person should do after a receipt is refused, when the refusal says: one clause appended
/// to the reason after `; `. The error keeps the precise rule; this is only advice. The `receipt`
/// tool prints it on standard error and receipt-server's inspector page shows it, in the same words.
public enum RefusalHint: Sendable {
    /// The line for a refused receipt: `not valid: REASON`, then `; HINT` when there is one.
    /// With the `policy` it was verified under, a chain that ends at the wrong root says which
    /// anchors were in use (`TrustExplanation`); `switches` are the program's own, which the advice
    /// names (the `receipt` tool's, receipt-server's).
    public static func message(
        _ error: ReceiptValidationError, time: ValidationTime, policy: TrustPolicy? = nil,
        switches: HintSwitches
    ) -> String {
        message(error, judgedNow: time.isNow, policy: policy, switches: switches)
    }

    /// The advice for `error` judged at `time` under `policy`, if any.
    public static func hint(
        _ error: ReceiptValidationError, time: ValidationTime, policy: TrustPolicy? = nil,
        switches: HintSwitches
    ) -> String? {
        hint(error, judgedNow: time.isNow, policy: policy, switches: switches)
    }

    /// The line for a refused receipt, `judgedNow` saying whether it was judged at the current
    /// time (a Foundation-free program gives the current time as `.millisecondsSince1970`).
    public static func message(
        _ error: ReceiptValidationError, judgedNow: Bool, policy: TrustPolicy? = nil,
        switches: HintSwitches
    ) -> String {
        guard let hint = hint(error, judgedNow: judgedNow, policy: policy, switches: switches) else { return "not valid: \(error)" }
        return "not valid: \(error); \(hint)"
    }

    /// The advice for `error`, judged at the current time or not, under `policy`, if any.
    public static func hint(
        _ error: ReceiptValidationError, judgedNow: Bool, policy: TrustPolicy? = nil,
        switches: HintSwitches
    ) -> String? {
        guard case .untrusted(let reason) = error else { return nil }
        switch reason {
        case .untrustedOrigin(let origin, _, _):
            return origin.hint(for: "receipt", switches: switches)
        case .expired where judgedNow, .notYetValid where judgedNow:
            return switches.judgeAtCreation.map {
                "Apple's signing certificates expire while their receipts stay valid: \($0) judges them at the receipt's creation date"
            }
        case .notTrusted(let certificate):
            return policy.map { TrustExplanation.notTrustedHint(certificate: certificate, policy: $0, switches: switches) }
        default:
            return nil
        }
    }
}

extension ValidationTime {
    /// Whether this is `.now` (which only Foundation's clock gives).
    var isNow: Bool {
        #if canImport(Foundation)
            return self == .now
        #else
            return false
        #endif
    }
}
