import Crypto
import Foundation

/// An endpoint's signing secret: 32 random bytes, shown once as `whsec_` and their standard
/// base64 (Standard Webhooks, "Symmetric signatures": secrets are 24 to 64 bytes, base64 with the
/// `whsec_` prefix), stored only sealed under the operator's secrets key (AES-256-GCM, bound to
/// the endpoint's id, as the apps' keys are bound to their bundle ids).
public struct WebhookSecret: Sendable {
    /// The secret's bytes.
    public let bytes: [UInt8]

    /// The length of a new secret.
    static let byteCount = 32

    /// A new secret from the system's secure generator.
    public static func generate() -> WebhookSecret {
        WebhookSecret(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    /// `whsec_<base64>`: what `webhook add` prints once and receivers are configured with.
    public var text: String { "whsec_" + Data(bytes).base64EncodedString() }

    /// The secret sealed for the endpoint `endpointID`.
    func sealed(under key: SecretsKey, endpointID: String) throws -> [UInt8] {
        try key.seal(bytes, context: Self.context(endpointID))
    }

    /// A secret from its sealed form; throws when it was not sealed for `endpointID` under `key`.
    static func open(_ sealed: [UInt8], under key: SecretsKey, endpointID: String) throws -> WebhookSecret {
        WebhookSecret(bytes: try key.open(sealed, context: context(endpointID)))
    }

    /// The associated data: never a bundle id (which holds no space), so no app key opens here.
    static func context(_ endpointID: String) -> [UInt8] {
        Array("receipt-server webhook secret \(endpointID)".utf8)
    }
}
