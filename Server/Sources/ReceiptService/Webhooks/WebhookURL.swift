import Foundation

/// The URL of a webhook endpoint: `http` or `https` with a host, no user name or password
/// (credentials would be stored and listed in clear; the signature is the endpoint's proof),
/// no fragment, no whitespace, at most 2,048 bytes (RFC 3986 §3: scheme, authority, path,
/// query). Loopback hosts are allowed: the operator, not a client, configures endpoints.
public enum WebhookURL {
    /// The longest URL accepted.
    static let maxLength = 2048

    /// Why a URL is refused.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case tooLong
        case malformed
        case scheme(String)
        case credentials
        case noHost
        case fragment

        public var description: String {
            switch self {
            case .tooLong: return "a webhook URL is at most \(WebhookURL.maxLength) bytes"
            case .malformed: return "the webhook URL is not a URL (RFC 3986)"
            case .scheme(let scheme): return "a webhook URL is http or https, not \(scheme.isEmpty ? "a relative URL" : scheme)"
            case .credentials: return "a webhook URL must not hold a user name or password (the signature authenticates)"
            case .noHost: return "the webhook URL names no host"
            case .fragment: return "a webhook URL must not hold a fragment (#…)"
            }
        }
    }

    /// `text` when it is an acceptable endpoint URL.
    public static func checked(_ text: String) throws(Refusal) -> String {
        guard text.utf8.count <= maxLength else { throw .tooLong }
        guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }),
            let components = URLComponents(string: text)
        else { throw .malformed }
        let scheme = components.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else { throw .scheme(scheme) }
        guard components.user == nil, components.password == nil else { throw .credentials }
        guard let host = components.percentEncodedHost, !host.isEmpty else { throw .noHost }
        guard components.fragment == nil else { throw .fragment }
        return text
    }
}
