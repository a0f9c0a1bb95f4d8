import AppStoreJWS
import X509Certificates

/// Turns a Get Retention Message request's `signedPayload` into the verified request, or refuses
/// it. The rules, in order:
/// 1. the token verifies under the App Store signed-data policy (Apple Root CA - G3 pinned, or
///    `--root-g3` anchors with the same rules) at its own `signedDate`
///    (`JWSVerifier.verifyRealtimeRequest`), else 401 (400 when it is no JWS or its payload no
///    JSON object);
/// 2. its `environment` is the endpoint's, and in production its `appAppleId` is the app's
///    configured Apple id when the registry has one, else 403 (Apple: "Always check that the
///    `appAppleId` in the request matches your app's `appAppleId`");
/// 3. it has a `signedDate`, else 400, signed at most 5 minutes ago and not in the future
///    (`RetentionFreshness`), else 401;
/// 4. the app of the URL is served (`AppRegistry`), else 403.
struct RetentionVerifier: Sendable {
    let verifier: JWSVerifier

    /// `anchors` replace Apple Root CA - G3 under the same rules (`--root-g3`); one link cache and
    /// one header cache serve every request. `revocation`: every verified path is asked about
    /// (`--revocation ocsp`).
    init(anchors: [TrustAnchor]?, revocation: RevocationGate? = nil) {
        verifier = .appStore(anchors: anchors, revocation: revocation)
    }

    /// The verified request for the app `bundleID` at `endpoint`; `now` in milliseconds since 1970.
    func request(
        _ token: String, bundleID: String, at endpoint: RetentionEndpoint, registry: AppRegistry, now: Int64
    ) throws(RetentionRefusal) -> DecodedRealtimeRequestBody {
        let request: DecodedRealtimeRequestBody
        do {
            let expectation = JWSExpectation(appAppleId: registry.appleID(for: bundleID), environment: endpoint.environment)
            request = try verifier.verifyRealtimeRequest(token, expecting: expectation)
        } catch {
            throw RetentionRefusal(error)
        }
        guard let signed = request.signedDate else { throw RetentionRefusal(.malformed, "payload has no signedDate") }
        try RetentionFreshness.check(signedDate: signed.value, now: now)
        guard registry.serves(bundleID) else { throw RetentionRefusal(.refused, "app \(bundleID) is not served here") }
        return request
    }
}
