import AppStoreJWS
import Foundation

/// One member of a JSON request body as Apple reads it: absent (or `null`), a value of its type,
/// or a value of another type. A JSON integer decodes as `Int64` (not a string, a fraction or a
/// Boolean), so that `"1"`, `1.5` and `true` are told apart from `1` on every platform.
enum JSONMember<T: Decodable & Hashable>: Hashable {
    case absent, value(T), invalid

    /// The member `key` of `container`.
    init<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) {
        guard container.contains(key), (try? container.decodeNil(forKey: key)) != true else {
            self = .absent
            return
        }
        self = (try? container.decode(T.self, forKey: key)).map(JSONMember.value) ?? .invalid
    }

    /// The value when absent or one of `allowed`; else `error`.
    func value(in allowed: Set<String>, or error: AppStoreAPIError) throws(AppStoreAPIError) -> String? {
        switch self {
        case .absent: return nil
        case .value(let text as String) where allowed.contains(text): return text
        default: throw error
        }
    }
}

/// A request body read by the strict reader of the notification endpoint (`ResponseBodyV2`:
/// RFC 8259, UTF-8, no duplicate or escaped member names, bounded nesting) as well as by
/// `JSONDecoder`, which takes one of two members of the same name where another reader (a proxy,
/// a log) may take the other. RFC 8259 §4 leaves duplicates to the reader; RFC 7515 §4 and RFC 7519
/// §4 let a JWS or JWT reader refuse them, and `APIJWT` does (its header and claims): a posted
/// body is held to the same.
enum StrictJSONBody {
    /// Nil when `body` passes the strict reader, else its reason (`JSONError`, one line).
    /// Only JSON errors count: what is not an object is left to the caller's decoding, and the
    /// reader's one typed member, `signedPayload`, is no member of these bodies.
    static func problem(_ body: Data) -> String? {
        do throws(JWSPayloadError) {
            _ = try ResponseBodyV2(body: Array(body))
            return nil
        } catch {
            guard case .json(let error) = error else { return nil }
            return error.description
        }
    }
}
