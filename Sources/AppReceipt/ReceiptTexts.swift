/// Where an in-app purchase's text lies: in the payload, or (BER constructed strings, joined)
/// in the receipt's joined-text buffer.
struct TextSpan: Sendable {
    let start: UInt32
    /// Length, with the top bit set for text in the joined buffer.
    let packedCount: UInt32

    init(start: Int, count: Int, inJoined: Bool) {
        self.start = UInt32(truncatingIfNeeded: start)
        packedCount = UInt32(truncatingIfNeeded: count) | (inJoined ? 1 << 31 : 0)
    }

    static let empty = TextSpan(start: 0, count: 0, inJoined: false)

    var count: Int { Int(packedCount & ~(1 << 31)) }
    var inJoined: Bool { packedCount >> 31 != 0 }
}

/// The bytes a receipt's purchases take their text from, shared by all of them.
final class ReceiptTexts: Sendable {
    let payload: [UInt8]
    let joined: [UInt8]

    init(payload: [UInt8], joined: [UInt8]) {
        self.payload = payload
        self.joined = joined
    }

    func bytes(_ span: TextSpan) -> ArraySlice<UInt8> {
        let start = Int(span.start)
        return (span.inJoined ? joined : payload)[start ..< start + span.count]
    }

    func string(_ span: TextSpan) -> String { String(decoding: bytes(span), as: UTF8.self) }

    func equals(_ span: TextSpan, _ text: String) -> Bool { bytes(span).elementsEqual(text.utf8) }
}
