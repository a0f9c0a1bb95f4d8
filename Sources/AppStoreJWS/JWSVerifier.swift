import CryptoPrimitives
import X509Certificates

/// A token whose signature and certificate chain have verified.
public struct VerifiedJWS: Sendable {
    /// The token's JOSE header.
    public let header: JWSHeader
    /// The payload JSON exactly as signed.
    public let payload: [UInt8]
    /// The certificate path, signing certificate first and trust anchor last: the `x5c` chain.
    public let chain: [Certificate]
    /// When the certificates were judged valid, seconds since 1970: the caller's time, or the
    /// payload's `signedDate`.
    public let validationTime: Int64
}

/// Verifies StoreKit 2 signed data: App Store transactions, renewal info, app transactions and
/// server notifications, all compact JWS signed with ES256 by the last certificate of an `x5c`
/// chain that ends at a trust anchor.
///
/// The rules, in the order they are checked:
/// 1. the token is three parts of unpadded base64url with a JSON object header and a JSON
///    payload, and every `x5c` certificate parses (malformed otherwise);
/// 2. `alg` is `ES256` (RFC 7518 §3.4), before any key is looked at; `crit` is absent;
/// 3. `x5c` is the whole path as the policy shapes it — App Store: leaf, intermediate, root — and
///    its last certificate is byte for byte one of the policy's anchors (Apple Root CA - G3,
///    embedded and pinned); every certificate's key fits the policy's `PublicKeyRules` (App Store:
///    P-256 or P-384 only);
/// 4. the leaf's key is ECDSA P-256 and the signature, raw r ‖ s, verifies over the ASCII of the
///    first two parts as received (RFC 7515 §5.2);
/// 5. the path verifies under the policy (signatures, CA rules, Apple's marker extensions) at the
///    validation time: the caller's, else the payload's `signedDate` (milliseconds since 1970).
///
/// Steps 4 and 5 draw their public-key operations from one `VerificationBudget` per token.
public struct JWSVerifier: Sendable {
    /// Anchors and rules; App Store signed data by default.
    public var policy: TrustPolicy
    /// Where verified certificate links are remembered (e.g. a shared `VerifiedLinkCache`).
    public var linkStore: AnyVerifiedLinkStore?
    /// Where the headers of verified tokens are remembered (e.g. a shared `JWSHeaderCache`).
    public var headerCache: JWSHeaderCache?
    /// Asks whether the path's certificates (all but the anchor) are revoked, once the path has
    /// verified; nil (the default): no revocation check, nothing online. See `RevocationChecker`.
    public var revocation: AnyRevocationChecker?

    /// Makes a verifier for `policy` (by default App Store signed data, anchored at Apple Root CA - G3)
    /// that remembers verified certificate links in `linkStore` and the headers of verified tokens
    /// in `headerCache`, if they are given: a token whose header text is one already verified
    /// skips decoding that header and hashing it again.
    public init(
        policy: TrustPolicy = .appStoreSignedData, linkStore: AnyVerifiedLinkStore? = nil, headerCache: JWSHeaderCache? = nil,
        revocation: AnyRevocationChecker? = nil
    ) {
        self.policy = policy
        self.linkStore = linkStore
        self.headerCache = headerCache
        self.revocation = revocation
    }

    /// Verifies `token`; certificate validity is judged at `time` (seconds since 1970) or, when
    /// `nil`, at the payload's `signedDate` (an app transaction's `receiptCreationDate` when it
    /// has no `signedDate`).
    public func verify(_ token: [UInt8], at time: Int64? = nil) throws(JWSError) -> VerifiedJWS {
        let jws = try CompactJWS(token) { [headerCache] text in headerCache?.entry(for: text) }
        return try verify(jws, at: time)
    }

    /// Verifies the token's text; see `verify(_:at:)`.
    public func verify(_ token: String, at time: Int64? = nil) throws(JWSError) -> VerifiedJWS {
        try verify(Array(token.utf8), at: time)
    }

    /// Verifies a token already taken apart; see `verify(_:at:)`.
    public func verify(_ jws: CompactJWS, at time: Int64? = nil) throws(JWSError) -> VerifiedJWS {
        let header = jws.header
        guard header.algorithm == "ES256" else { throw .unsupportedAlgorithm(header.algorithm) }
        guard !header.hasCriticalParameters else { throw .unsupportedCriticalHeader }
        guard let x5c = header.certificateChain, !x5c.isEmpty else { throw .missingCertificateChain }
        do {
            return try verify(jws, chain: x5c, at: time)
        } catch  where error.category == .notAuthentic {
            // Only the words change: Xcode's data under the App Store policy (or the reverse) is
            // refused either way, with the precise rule kept.
            guard let origin = policy.foreignOrigin(of: x5c[0], among: x5c) else { throw error }
            throw .untrustedOrigin(origin, policy: policy.name, rule: error)
        }
    }

    /// The rules from the chain's shape on (steps 3 to 5).
    private func verify(_ jws: CompactJWS, chain x5c: [Certificate], at time: Int64?) throws(JWSError) -> VerifiedJWS {
        try X5CShape.check(x5c, policy: policy)
        var budget = VerificationBudget()
        do {
            try MessageCertificates.check(x5c, policy: policy)
            try budget.spend()
        } catch {
            throw .untrusted(error)
        }
        let rememberedKey = linkStore?.signingKey(of: x5c[0])
        let key = try checkSignature(of: jws, by: x5c[0], key: rememberedKey)
        let validationTime: Int64
        if let time { validationTime = time } else { validationTime = try SigningTime.read(jws.payload) }
        var builder = ChainBuilder(
            policy: policy, time: validationTime, embedded: Array(x5c.dropFirst()), linkStore: linkStore,
            budget: budget)
        let chain: [Certificate]
        do throws(VerificationError) {
            chain = try builder.build(from: x5c[0])
        } catch {
            throw .untrusted(error)
        }
        try X5CShape.checkPath(chain, is: x5c)
        try checkRevocation(of: chain, at: validationTime)
        // The whole path verified: its signer's key, with a verification table, serves the
        // tokens it signs next (one table per signing certificate Apple issued, never one an
        // unverified token brought).
        if rememberedKey == nil, let linkStore { linkStore.insertSigningKey(key.withVerificationTable(), of: x5c[0]) }
        if jws.hashedHeader == nil, let headerCache { headerCache.insert(jws.header, of: jws) }
        return VerifiedJWS(header: jws.header, payload: jws.payload, chain: chain, validationTime: validationTime)
    }

    /// The `revocation` checker's verdict on a verified path, when there is a checker: only
    /// certificates whose path reached an anchor are ever asked about, so a token cannot make a
    /// checker fetch for certificates of its choosing. A revoked certificate, and one its
    /// responder does not know, is refused (RFC 6960 §2.2).
    private func checkRevocation(of chain: [Certificate], at time: Int64) throws(JWSError) {
        guard let revocation else { return }
        let statuses: [RevocationStatus]
        do throws(RevocationCheckError) {
            statuses = try revocation.check(path: chain, at: time)
        } catch {
            throw .revocation(error)
        }
        for (certificate, status) in zip(chain, statuses) where status == .unknown {
            throw .revocation(.unknownCertificate(subject: certificate.subjectName))
        }
    }

    /// ES256: ECDSA P-256 with SHA-256 over the signing input, the signature as raw r ‖ s
    /// (RFC 7518 §3.4). Verifies with `remembered`, the signer's key as the link store kept it,
    /// when there is one; returns the key used.
    private func checkSignature(of jws: CompactJWS, by signer: Certificate, key remembered: ECDSAPublicKey?) throws(JWSError) -> ECDSAPublicKey {
        guard jws.signature.count == 64 else { throw .invalidSignatureLength(jws.signature.count) }
        let key: ECDSAPublicKey
        if let remembered {
            key = remembered
        } else {
            do {
                key = try signer.ecdsaPublicKey()
            } catch {
                throw .signingKeyNotP256(subject: signer.subjectName)
            }
        }
        guard key.curve == .p256 else { throw .signingKeyNotP256(subject: signer.subjectName) }
        let digest = signingInputDigest(of: jws)
        guard key.isValidSignature(rawRepresentation: jws.signature, digest: digest) else {
            throw .signatureInvalid(subject: signer.subjectName)
        }
        return key
    }

    /// SHA-256 of the signing input `token[..<signingInputEnd]` (RFC 7515 §5.2 step 8): resumed
    /// after the header and its dot when the header cache holds that header's text (the state
    /// SHA-256 reached on the same bytes before), from the start otherwise.
    private func signingInputDigest(of jws: CompactJWS) -> Digest {
        var hasher = SHA256()
        var start = 0
        if let hashed = jws.hashedHeader {
            hasher = hashed
            start = jws.headerEnd + 1
        }
        jws.token.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[start ..< jws.signingInputEnd])) }
        return hasher.finalize()
    }
}
