import Synchronization
import X509Certificates

/// The OCSP answers the server holds, by certificate, each until it expires, and the
/// certificates whose last fetch failed (not fetched again for `retryDelay` seconds, so a dead
/// responder costs one attempt per interval, not one per request). Both tables are bounded.
final class RevocationCache: Sendable {
    struct Answer: Sendable {
        let status: RevocationStatus
        /// Seconds since 1970 after which the answer is not used.
        let expires: Int64
    }

    /// What the cache holds about a certificate.
    enum Lookup: Sendable, Equatable {
        /// A fresh answer.
        case fresh(RevocationStatus)
        /// Nothing fresh: worth fetching.
        case missing
        /// Nothing fresh, and its last fetch failed less than `retryDelay` ago.
        case failedRecently
    }

    private struct State {
        var answers: [[UInt8]: Answer] = [:]
        var failedUntil: [[UInt8]: Int64] = [:]
    }

    /// At most this many answers and failed certificates each (Apple signs with a few
    /// dozen leaves at a time; a table that fills is emptied of what expired, then of everything).
    static let capacity = 4_096
    /// Seconds a certificate whose fetch failed is not fetched again.
    static let retryDelay: Int64 = 30

    private let state = Mutex(State())

    /// What is held about `certificate` at `now`.
    func lookup(_ certificate: Certificate, now: Int64) -> Lookup {
        let key = Array(certificate.encoded)
        return state.withLock { state in
            if let answer = state.answers[key], answer.expires > now { return .fresh(answer.status) }
            if let until = state.failedUntil[key], until > now { return .failedRecently }
            return .missing
        }
    }

    /// Keeps `status` about `certificate` until `expires`.
    func store(_ status: RevocationStatus, for certificate: Certificate, expires: Int64, now: Int64) {
        let key = Array(certificate.encoded)
        state.withLock { state in
            if state.answers.count >= Self.capacity { state.answers = state.answers.filter { $0.value.expires > now } }
            if state.answers.count >= Self.capacity { state.answers.removeAll() }
            state.answers[key] = Answer(status: status, expires: expires)
            state.failedUntil[key] = nil
        }
    }

    /// Notes that no answer about `certificate` could be had at `now`.
    func failed(_ certificate: Certificate, now: Int64) {
        state.withLock { state in
            if state.failedUntil.count >= Self.capacity { state.failedUntil = state.failedUntil.filter { $0.value > now } }
            if state.failedUntil.count >= Self.capacity { state.failedUntil.removeAll() }
            state.failedUntil[Array(certificate.encoded)] = now + Self.retryDelay
        }
    }
}
