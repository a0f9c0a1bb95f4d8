/// A real-time request is answered only while it is fresh. Apple signs the request as the
/// customer opens the subscription's page and waits for the answer to show a message, so a
/// genuine request is seconds old; one signed minutes ago is a replay (anyone who saw a request
/// can post it again: the signature proves who signed it, not who sends it now). A bound
/// makes a captured request useless after it; 5 minutes is far longer than Apple waits, and
/// 60 s ahead forgives clocks that disagree (as the App Store Server API's tokens, DESIGN §13).
enum RetentionFreshness {
    /// Oldest `signedDate` answered, in milliseconds before now.
    static let maximumAge: Int64 = 300_000
    /// Latest `signedDate` answered, in milliseconds after now (clock skew).
    static let leeway: Int64 = 60_000

    /// Refuses (401) a `signedDate` (milliseconds) older than `maximumAge` or more than `leeway`
    /// after `now`.
    static func check(signedDate: Int64, now: Int64) throws(RetentionRefusal) {
        let age = now.subtractingReportingOverflow(signedDate)
        if age.overflow || age.partialValue > maximumAge {
            let seconds = age.overflow ? "over \(maximumAge / 1000)" : "\(age.partialValue / 1000)"
            throw RetentionRefusal(.notAuthentic, "signedDate is \(seconds) s old; real-time requests are answered for \(maximumAge / 1000) s")
        }
        if age.partialValue < -leeway {
            throw RetentionRefusal(.notAuthentic, "signedDate is \(-age.partialValue / 1000) s in the future")
        }
    }
}
