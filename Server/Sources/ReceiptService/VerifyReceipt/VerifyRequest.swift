import Foundation

/// The fields of a `verifyReceipt` request body that matter, each as found.
struct VerifyRequest: Sendable {
    /// A request field: absent, present with the expected JSON type, or present with another.
    enum Field<Value: Sendable>: Sendable {
        case absent, value(Value), wrongType

        var value: Value? {
            if case .value(let value) = self { return value }
            return nil
        }
    }

    var receiptData: Field<String>
    var password: Field<String>
    /// `true` only for the JSON literal `true`.
    var excludeOldTransactions: Bool

    /// Parses `body`; nil when it is not one JSON object (21000). Foundation's parser rejects
    /// invalid UTF-8 and caps nesting depth, throwing instead of recursing without bound.
    init?(json body: Data) {
        guard let decoded = try? JSONDecoder().decode(Fields.self, from: body) else { return nil }
        receiptData = decoded.receiptData
        password = decoded.password
        excludeOldTransactions = decoded.excludeOldTransactions.value ?? false
    }

    /// The keyed decoding: a JSON object whose other keys may hold anything.
    private struct Fields: Decodable {
        var receiptData: Field<String>
        var password: Field<String>
        var excludeOldTransactions: Field<Bool>

        enum Key: String, CodingKey {
            case receiptData = "receipt-data"
            case password
            case excludeOldTransactions = "exclude-old-transactions"
        }

        init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: Key.self)   // throws unless an object
            receiptData = Self.field(object, .receiptData)
            password = Self.field(object, .password)
            excludeOldTransactions = Self.field(object, .excludeOldTransactions)
        }

        static func field<T: Decodable & Sendable>(_ object: KeyedDecodingContainer<Key>, _ key: Key) -> Field<T> {
            guard object.contains(key) else { return .absent }
            guard let value = try? object.decode(T.self, forKey: key) else { return .wrongType }
            return .value(value)
        }
    }
}

/// `receipt-data`: standard base64 (RFC 4648 §4); line breaks and spaces, which some clients
/// insert, are ignored. Nil when anything else is in it, or nothing.
enum ReceiptData {
    static func decode(_ text: String) -> [UInt8]? {
        if let data = Data(base64Encoded: text), !data.isEmpty { return [UInt8](data) }
        let compact = String(text.unicodeScalars.filter { !" \n\r\t".unicodeScalars.contains($0) })
        guard compact.count != text.count, let data = Data(base64Encoded: compact), !data.isEmpty else { return nil }
        return [UInt8](data)
    }
}
