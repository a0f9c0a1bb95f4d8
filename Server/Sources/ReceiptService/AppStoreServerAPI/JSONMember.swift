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
