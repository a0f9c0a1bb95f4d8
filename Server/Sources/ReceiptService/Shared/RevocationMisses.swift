import Synchronization
import X509Certificates

/// The certificates one request's verification found no fresh OCSP answer for: set as a task
/// local by `RevocationGate` around the (synchronous) verification, read by
/// `CachedRevocationChecker`. Per request, so two requests never take each other's misses.
final class RevocationMisses: Sendable {
    /// A certificate to ask about and the issuer its CertID names (RFC 6960 §4.1.1).
    struct Wanted: Sendable {
        let certificate: Certificate
        let issuer: Certificate
    }

    /// The current request's collector, when a gate set one.
    @TaskLocal static var current: RevocationMisses?

    /// A token nests at most three tokens of two certificates each to ask about.
    static let capacity = 16

    private let wanted = Mutex<[[UInt8]: Wanted]>([:])

    /// Notes `certificate` (once).
    func note(_ certificate: Certificate, issuer: Certificate) {
        wanted.withLock { wanted in
            guard wanted.count < Self.capacity else { return }
            wanted[Array(certificate.encoded)] = Wanted(certificate: certificate, issuer: issuer)
        }
    }

    /// What was noted.
    var all: [Wanted] { wanted.withLock { Array($0.values) } }
}
