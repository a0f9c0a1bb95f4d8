import Logging
import ReceiptStore
import Synchronization
import X509Certificates

/// OCSP on request (`receipt-server --revocation ocsp`, issue 40): the verifiers ask a
/// `CachedRevocationChecker` about every certificate of a path that verified (leaf and
/// intermediate); when an answer is missing, the request's verification fails as
/// `revocationUnavailable`, the gate fetches what was wanted from the responders the
/// certificates name (Authority Information Access, RFC 5280 §4.2.2.1), checks each answer
/// (`OCSPResponseVerifier`: RFC 6960 §3.2 and the responder rules of §4.2.2.2), keeps the good
/// and the revoked ones, and verifies once more. Only certificates whose path reached an anchor
/// are ever fetched for: a request cannot make the server contact a URL of its choosing.
///
/// A fresh answer serves for `ttl` seconds at most, and never past its `nextUpdate`. A responder
/// that does not answer makes the request unavailable (503, so Apple retries), and is not asked
/// about that certificate again for `RevocationCache.retryDelay` seconds.
public final class RevocationGate: Sendable {
    let cache = RevocationCache()
    let fetcher: any OCSPFetching
    let ttl: Int64
    let clock: @Sendable () -> Int64
    let logger: Logger
    let verifier = OCSPResponseVerifier()
    /// The fetches under way, by certificate.
    let inFlight = Mutex<[[UInt8]: Task<Void, Never>]>([:])

    /// A gate fetching through `fetcher`, keeping answers `ttl` seconds at most; `clock` gives
    /// seconds since 1970.
    public init(fetcher: any OCSPFetching, ttl: Int64, logger: Logger, clock: @escaping @Sendable () -> Int64 = { EpochMilliseconds.now() / 1000 }) {
        self.fetcher = fetcher
        self.ttl = ttl
        self.logger = logger
        self.clock = clock
    }

    /// The checker the verifiers are given.
    var checker: CachedRevocationChecker { CachedRevocationChecker(cache: cache, clock: clock) }

    /// At most this many rounds of fetching per request: a path stops at its first certificate
    /// without an answer, so the leaf's answer is fetched in one round and the intermediate's in
    /// the next (nested tokens share their outer token's path in practice).
    static let maxRounds = 4

    /// `attempt`'s result; when it failed for want of answers, they are fetched and `attempt`
    /// runs again, while it finds new certificates to ask about (`maxRounds` at most).
    func verifying<T, E: Error>(_ attempt: () throws(E) -> T) async throws(E) -> T {
        var asked = Set<[UInt8]>()
        for _ in 1 ..< Self.maxRounds {
            let misses = RevocationMisses()
            var result: Result<T, E>!
            RevocationMisses.$current.withValue(misses) { result = Result { () throws(E) in try attempt() } }
            let wanted = misses.all.filter { asked.insert(Array($0.certificate.encoded)).inserted }
            guard case .failure = result, !wanted.isEmpty else { return try result.get() }
            await fetch(wanted)
        }
        return try attempt()
    }

    /// A verified path's certificates but the anchor, asked about through the cache (for
    /// receipts: their verifiers take no checker, the path is asked about once verified); a
    /// revoked or unknown certificate, or one naming no responder, is thrown, as is a missing answer.
    func check(path: [Certificate]) throws(RevocationCheckError) {
        for (certificate, status) in zip(path, try checker.check(path: path, at: clock())) where status == .unknown {
            throw .unknownCertificate(subject: certificate.subjectName)
        }
    }

    /// Fetches every wanted certificate's status concurrently; a certificate another request is
    /// already fetching is awaited, not fetched twice.
    func fetch(_ wanted: [RevocationMisses.Wanted]) async {
        let tasks = wanted.map { item in
            inFlight.withLock { inFlight in
                let key = Array(item.certificate.encoded)
                if let task = inFlight[key] { return task }
                let task = Task {
                    await self.fetch(item)
                    _ = self.inFlight.withLock { $0.removeValue(forKey: key) }
                }
                inFlight[key] = task
                return task
            }
        }
        for task in tasks { await task.value }
    }

    /// Asks the certificate's responders in turn until one gives an answer that verifies.
    func fetch(_ item: RevocationMisses.Wanted) async {
        let subject = item.certificate.subjectDescription
        guard let urls = try? item.certificate.ocspResponderURLs, let request = try? OCSPRequest(certificate: item.certificate, issuer: item.issuer)
        else {
            cache.failed(item.certificate, now: clock())
            return
        }
        for url in urls where url.hasPrefix("http://") || url.hasPrefix("https://") {
            let response: [UInt8]
            do {
                response = try await fetcher.fetch(request.derEncoded, from: url)
            } catch {
                logger.notice("OCSP responder did not answer", metadata: ["url": "\(url)", "subject": "\(subject)", "error": "\(error)"])
                continue
            }
            let now = clock()
            do {
                let status = try verifier.verify(response, certificate: item.certificate, issuer: item.issuer, at: now)
                cache.store(status, for: item.certificate, expires: expiry(of: status, now: now), now: now)
                return
            } catch {
                logger.warning("OCSP answer refused", metadata: ["url": "\(url)", "subject": "\(subject)", "error": "\(error)"])
            }
        }
        cache.failed(item.certificate, now: clock())
    }

    /// Now plus `ttl`, or the answer's `nextUpdate` when sooner (RFC 6960 §4.2.2.1: an answer
    /// is not used past it).
    func expiry(of status: RevocationStatus, now: Int64) -> Int64 {
        if case .good(_, let nextUpdate?) = status { return min(now + ttl, nextUpdate) }
        return now + ttl
    }
}
