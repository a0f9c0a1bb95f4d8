import AppReceipt
import AppStoreJWS
import Foundation

/// The two App Store Server Notifications V2 endpoints: the URLs an operator enters in App Store
/// Connect, one per environment.
public enum NotificationEndpoint: String, Sendable, CaseIterable {
    /// `POST /notifications/v2`: production notifications only.
    case production
    /// `POST /sandbox/notifications/v2`: sandbox notifications only.
    case sandbox

    /// The URL path.
    public var path: String {
        switch self {
        case .production: return "/notifications/v2"
        case .sandbox: return "/sandbox/notifications/v2"
        }
    }

    /// The `data.environment` a notification posted here must name.
    public var environment: String {
        switch self {
        case .production: return "Production"
        case .sandbox: return "Sandbox"
        }
    }
}

/// The notification request body: `{"signedPayload": "<JWS>"}` (other members are ignored).
enum SignedPayloadBody {
    /// The token, or nil when the body is not a JSON object whose `signedPayload` is a string
    /// (`ResponseBodyV2`: strict JSON, UTF-8, bounded nesting).
    static func token(_ body: Data) -> String? {
        (try? ResponseBodyV2(body: Array(body)))?.signedPayload
    }
}
