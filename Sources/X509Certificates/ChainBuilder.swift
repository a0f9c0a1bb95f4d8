import CryptoPrimitives
import DER

/// Builds and checks a path from a signing certificate to one of the policy's anchors
/// (RFC 5280 §6.1, simplified to what receipts need), depth-first over candidate issuers.
///
/// Bounded as rustls-webpki is: at most `maxIntermediates` intermediates, signature checks drawn
/// from the message's `VerificationBudget`, no certificate twice in a path. When every candidate
/// fails, the failure that got furthest (then the most specific) is reported. Links enter the
/// `linkStore` only once their whole path has reached an anchor, so an attacker's own chains
/// cannot push Apple's links out of a shared cache.
package struct ChainBuilder {
    static let maxIntermediates = 6

    let policy: TrustPolicy
    let time: Int64
    /// Embedded certificates that are not anchors.
    let intermediates: [Certificate]
    let linkStore: AnyVerifiedLinkStore?
    /// What the message has left to spend; read it back after `build`, whatever its outcome.
    package private(set) var budget: VerificationBudget
    /// Links whose signature this search verified (not found in `linkStore`), on any path tried.
    private var verifiedLinks: [CertificateLink] = []

    package init(
        policy: TrustPolicy, time: Int64, embedded: [Certificate], linkStore: AnyVerifiedLinkStore?,
        budget: VerificationBudget = VerificationBudget()
    ) {
        self.policy = policy
        self.time = time
        self.linkStore = linkStore
        self.budget = budget
        intermediates = embedded.filter { !policy.isAnchor($0) }
    }

    /// A failed candidate path: the error and how many certificates the path held when it failed.
    struct Failure: Error {
        let error: VerificationError
        let depth: Int

        /// Budget exhaustion ends the whole search.
        var endsSearch: Bool { error == .budgetExceeded }

        func isMoreSpecific(than other: Failure?) -> Bool {
            guard let other else { return true }
            return (depth, error.rank) > (other.depth, other.error.rank)
        }
    }

    /// The path from `leaf` to an anchor, leaf first and anchor last.
    package mutating func build(from leaf: Certificate) throws(VerificationError) -> [Certificate] {
        do throws(Failure) {
            try checkValidity(leaf, depth: 1)
            try checkCriticalExtensions(leaf, depth: 1)
            if let usage = leaf.extensions.keyUsage, !usage.contains(.digitalSignature) {
                throw Failure(error: .missingKeyUsage(subject: leaf.subjectName, required: .digitalSignature), depth: 1)
            }
            // The signer may itself be an anchor (Xcode's StoreKit certificate signs directly).
            if policy.isAnchor(leaf) {
                try checkPolicy([leaf])
                return [leaf]
            }
            let path = try search([leaf])
            remember(path)
            return path
        } catch {
            throw error.error
        }
    }

    /// Stores the links this search verified that lie on `path`, a path that reached an anchor.
    private func remember(_ path: [Certificate]) {
        guard let linkStore, !verifiedLinks.isEmpty else { return }
        for index in path.indices.dropLast() {
            let link = CertificateLink(issuer: path[index + 1], child: path[index])
            if verifiedLinks.contains(link) { linkStore.insert(link) }
        }
    }

    private mutating func search(_ path: [Certificate]) throws(Failure) -> [Certificate] {
        let child = path[path.count - 1]
        var best: Failure? = nil
        var candidates = 0
        func consider(_ failure: Failure) throws(Failure) {
            if failure.endsSearch { throw failure }
            if failure.isMoreSpecific(than: best) { best = failure }
        }

        for anchor in policy.anchors where Self.mayHaveIssued(anchor.certificate, child) {
            candidates += 1
            do throws(Failure) {
                try checkIssuer(anchor.certificate, of: child, path: path, isAnchor: true)
                let full = path + [anchor.certificate]
                try checkPolicy(full)
                return full
            } catch {
                try consider(error)
            }
        }
        // A self-issued certificate that is not an anchor ends the path (key-rollover
        // certificates are not followed): a self-made "Apple Root CA" lands here. Its failure
        // ranks with the failed anchor checks above it (same depth, higher rank).
        if child.isSelfIssued {
            try consider(Failure(error: .notTrusted(certificate: EncodedCertificate(child)), depth: path.count + 1))
            throw best!
        }
        for candidate in intermediates where Self.mayHaveIssued(candidate, child) {
            candidates += 1
            if path.contains(where: { $0.subject == candidate.subject && $0.publicKeyInfo == candidate.publicKeyInfo }) {
                try consider(Failure(error: .certificateLoop(subject: candidate.subjectName), depth: path.count))
                continue
            }
            guard path.count - 1 < Self.maxIntermediates else {
                try consider(Failure(error: .pathTooLong, depth: path.count))
                continue
            }
            do throws(Failure) {
                try checkIssuer(candidate, of: child, path: path, isAnchor: false)
                return try search(path + [candidate])
            } catch {
                try consider(error)
            }
        }
        if candidates == 0 {
            try consider(Failure(error: .chainIncomplete(subject: child.subjectName), depth: path.count))
        }
        throw best!
    }

    /// Name match, and key identifiers when both certificates carry them (RFC 5280 §4.2.1.1).
    static func mayHaveIssued(_ issuer: Certificate, _ child: Certificate) -> Bool {
        guard issuer.subject == child.issuer else { return false }
        if let authority = child.extensions.authorityKeyIdentifier, let subject = issuer.extensions.subjectKeyIdentifier {
            return authority == subject
        }
        return true
    }

    /// The rules on one link: the issuer's role, validity and signature. Anchors are held to the
    /// same CA rules (their basicConstraints, keyUsage and pathLenConstraint as they carry them);
    /// only their own signature is not checked. A version 1 anchor, which cannot carry extensions,
    /// issues as configured (RFC 5280 §6.1.1 d: the anchor is an input, not a certificate to check).
    private mutating func checkIssuer(_ issuer: Certificate, of child: Certificate, path: [Certificate], isAnchor: Bool) throws(Failure) {
        let depth = path.count + 1
        try checkCriticalExtensions(issuer, depth: depth)
        // RFC 5280 §4.2.1.9: only CAs issue; §4.2.1.3: keyCertSign when keyUsage is present.
        let constraints = issuer.extensions.basicConstraints
        guard constraints?.isCA == true || (isAnchor && issuer.version == 1) else {
            throw Failure(error: .notCA(subject: issuer.subjectName), depth: depth)
        }
        if let usage = issuer.extensions.keyUsage, !usage.contains(.keyCertSign) {
            throw Failure(error: .missingKeyUsage(subject: issuer.subjectName, required: .keyCertSign), depth: depth)
        }
        // pathLenConstraint counts the non-self-issued intermediates below this CA (§6.1.4 l–m).
        if let limit = constraints?.pathLength {
            let below = path.dropFirst().filter { !$0.isSelfIssued }.count
            if below > limit {
                throw Failure(error: .pathLengthConstraintExceeded(subject: issuer.subjectName), depth: depth)
            }
        }
        try checkValidity(issuer, depth: depth)
        try checkSignature(of: child, by: issuer, depth: depth)
    }

    private func checkValidity(_ certificate: Certificate, depth: Int) throws(Failure) {
        if time > certificate.notAfter {
            throw Failure(error: .expired(subject: certificate.subjectName, notAfter: certificate.notAfter, at: time), depth: depth)
        }
        if time < certificate.notBefore {
            throw Failure(error: .notYetValid(subject: certificate.subjectName, notBefore: certificate.notBefore, at: time), depth: depth)
        }
    }

    /// Every critical extension this parser does not process must be claimed by the policy,
    /// whose check must then accept it (RFC 5280 §4.2).
    private func checkCriticalExtensions(_ certificate: Certificate, depth: Int) throws(Failure) {
        for oid in certificate.extensions.unhandledCritical {
            guard let claim = policy.claimedCriticalExtensions.first(where: { $0.oid == oid }) else {
                throw Failure(error: .unhandledCriticalExtension(subject: certificate.subjectName, oid: oid), depth: depth)
            }
            guard claim.accepts(certificate) else {
                throw Failure(error: .extensionNotAccepted(subject: certificate.subjectName, oid: oid), depth: depth)
            }
        }
    }

    /// The issuer's key over the child's exact `tbsCertificate`, unless the link is remembered.
    private mutating func checkSignature(of child: Certificate, by issuer: Certificate, depth: Int) throws(Failure) {
        let link = CertificateLink(issuer: issuer, child: child)
        if let linkStore, linkStore.contains(link) { return }
        do {
            try budget.spend()
        } catch {
            throw Failure(error: error, depth: depth)
        }
        // A certificate names its hash (RFC 5280 §4.1.1.2); bare rsaEncryption is a CMS signer form only.
        guard let hash = child.signatureAlgorithm.hash else { throw Failure(error: .unsupportedSignatureAlgorithm, depth: depth) }
        let outcome = child.storage.withUnsafeBytes { raw in
            let digest = hash.hash(UnsafeRawBufferPointer(rebasing: raw[child.tbsRange]))
            return Result { () throws(VerificationError) in
                try issuer.isValidSignature(
                    UnsafeRawBufferPointer(rebasing: raw[child.signatureRange]), digest: digest,
                    hash: hash, family: child.signatureAlgorithm.keyFamily)
            }
        }
        let valid: Bool
        do {
            valid = try outcome.get()
        } catch {
            throw Failure(error: error, depth: depth)
        }
        guard valid else { throw Failure(error: .signatureInvalid(subject: child.subjectName), depth: depth) }
        if linkStore != nil { verifiedLinks.append(link) }
    }

    /// The policy's rules on a complete path (leaf first, anchor last; a lone anchor-signer).
    private func checkPolicy(_ path: [Certificate]) throws(Failure) {
        let depth = path.count + 1
        let leaf = path[0]
        let intermediates = path.count > 1 ? Array(path[1 ..< path.count - 1]) : []
        if let required = policy.requiredIntermediateCount, intermediates.count != required {
            throw Failure(error: .unexpectedChainLength(expectedIntermediates: required, found: intermediates.count), depth: depth)
        }
        for oid in policy.leafRequiredPolicies where !(leaf.extensions.policies?.contains(oid) ?? false) {
            throw Failure(error: .missingCertificatePolicy(subject: leaf.subjectName, oid: oid), depth: depth)
        }
        for oid in policy.leafRequiredExtensions where !leaf.extensions.contains(oid) {
            throw Failure(error: .missingAppleExtension(subject: leaf.subjectName, oid: oid), depth: depth)
        }
        for intermediate in intermediates {
            for oid in policy.intermediateRequiredExtensions where !intermediate.extensions.contains(oid) {
                throw Failure(error: .missingAppleExtension(subject: intermediate.subjectName, oid: oid), depth: depth)
            }
        }
    }
}
