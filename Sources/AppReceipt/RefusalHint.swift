import X509Certificates

/// What a person should do after a receipt is refused, when the refusal says: one clause appended
/// to the reason after `; `. The error keeps the precise rule; this is only advice. The `receipt`
/// tool prints it on standard error and receipt-server's inspector page shows it, in the same words.
public enum RefusalHint: Sendable {
    /// The line for a refused receipt: `not valid: REASON`, then `; HINT` when there is one.
    /// With the `policy` it was verified under, a chain that ends at the wrong root says which
    /// anchors were in use (`TrustExplanation`); `audience` chooses whose switches the advice names.
    public static func message(
        _ error: ReceiptValidationError, time: ValidationTime, policy: TrustPolicy? = nil,
        audience: HintAudience = .commandLine
    ) -> String {
        message(error, judgedNow: time.isNow, policy: policy, audience: audience)
    }

    /// The advice for `error` judged at `time` under `policy`, if any.
    public static func hint(
        _ error: ReceiptValidationError, time: ValidationTime, policy: TrustPolicy? = nil,
        audience: HintAudience = .commandLine
    ) -> String? {
        hint(error, judgedNow: time.isNow, policy: policy, audience: audience)
    }

    /// The line for a refused receipt, `judgedNow` saying whether it was judged at the current
    /// time (a Foundation-free program gives the current time as `.millisecondsSince1970`).
    public static func message(
        _ error: ReceiptValidationError, judgedNow: Bool, policy: TrustPolicy? = nil,
        audience: HintAudience = .commandLine
    ) -> String {
        guard let hint = hint(error, judgedNow: judgedNow, policy: policy, audience: audience) else { return "not valid: \(error)" }
        return "not valid: \(error); \(hint)"
    }

    /// The advice for `error`, judged at the current time or not, under `policy`, if any.
    public static func hint(
        _ error: ReceiptValidationError, judgedNow: Bool, policy: TrustPolicy? = nil,
        audience: HintAudience = .commandLine
    ) -> String? {
        guard case .untrusted(let reason) = error else { return nil }
        switch reason {
        case .untrustedOrigin(let origin, _, _):
            return origin.hint(for: "receipt", audience: audience)
        case .expired where judgedNow, .notYetValid where judgedNow:
            return
                "Apple's signing certificates expire while their receipts stay valid: --at receipt (the default) judges them at the receipt's creation date"
        case .notTrusted(let fingerprint):
            return policy.map { TrustExplanation.notTrustedHint(fingerprint: fingerprint, policy: $0, audience: audience) }
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
