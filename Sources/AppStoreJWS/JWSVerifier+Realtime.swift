extension JWSVerifier {
    /// Verifies a Retention Messaging real-time request (`RealtimeRequestBody.signedPayload`) and
    /// decodes it, with the same policy as every other token. The request names no bundle: as in
    /// Apple's `verify_and_decode_realtime_request`, only the environment and, for `Production`
    /// requests, the app's Apple id are compared with `expectation`.
    public func verifyRealtimeRequest(
        _ token: String, expecting expectation: JWSExpectation = .init(),
        at time: Int64? = nil
    ) throws(JWSError) -> DecodedRealtimeRequestBody {
        let verified = try verify(token, at: time)
        let request: DecodedRealtimeRequestBody
        do {
            request = try DecodedRealtimeRequestBody(payload: verified.payload)
        } catch {
            throw .payload(error)
        }
        try JWSExpectation(appAppleId: expectation.appAppleId, environment: expectation.environment)
            .check(bundleId: nil, appAppleId: request.appAppleId, environment: request.environment, checksAppAppleId: true)
        return request
    }
}
