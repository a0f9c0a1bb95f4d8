/// The two Get Retention Message endpoints (Apple's Retention Messaging API calls them in real
/// time): the URLs an operator gives Apple with `Configure Realtime URL`, one per environment and
/// app.
///
/// The app is in the path because the signed request names none: `DecodedRealtimeRequestBody`
/// carries `appAppleId` but no bundle id, and Apple configures the URL per app (the call is made
/// with the app's key), so the URL is where the app can be named. The paths mirror the
/// notifications' (`/sandbox` in front for the sandbox), with `v1` for the request's shape.
public enum RetentionEndpoint: String, Sendable, CaseIterable {
    /// `POST /retention/v1/realtime/{bundleId}`: production requests only.
    case production
    /// `POST /sandbox/retention/v1/realtime/{bundleId}`: sandbox requests only.
    case sandbox

    /// The URL path, `{bundleId}` standing for the app's bundle id.
    public var path: String {
        switch self {
        case .production: return "/retention/v1/realtime/{bundleId}"
        case .sandbox: return "/sandbox/retention/v1/realtime/{bundleId}"
        }
    }

    /// The `environment` a request posted here must name.
    public var environment: String {
        switch self {
        case .production: return "Production"
        case .sandbox: return "Sandbox"
        }
    }
}
