import Foundation

/// UUIDs as Apple's libraries write them into what they sign: the 36-character form of RFC 9562
/// §4 (`8-4-4-4-12` hexadecimal digits) in lowercase, which is Python's `str(uuid.UUID)`.
enum UUIDText {
    /// `text` in lowercase when it is a UUID in the 36-character form (either case), else `nil`.
    /// Braces, `urn:uuid:` and the 32-digit form are refused: they are not the form StoreKit
    /// sends or Apple's documentation shows.
    static func canonical(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        var lowercase: [UInt8] = []
        lowercase.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            switch (index, byte) {
            case (8, UInt8(ascii: "-")), (13, UInt8(ascii: "-")), (18, UInt8(ascii: "-")), (23, UInt8(ascii: "-")):
                lowercase.append(byte)
            case (8, _), (13, _), (18, _), (23, _):
                return nil
            case (_, UInt8(ascii: "0") ... UInt8(ascii: "9")), (_, UInt8(ascii: "a") ... UInt8(ascii: "f")):
                lowercase.append(byte)
            case (_, UInt8(ascii: "A") ... UInt8(ascii: "F")):
                lowercase.append(byte | 0x20)
            default:
                return nil
            }
        }
        return String(decoding: lowercase, as: UTF8.self)
    }

    /// A fresh random (version 4) UUID in lowercase, as Python's `str(uuid.uuid4())`.
    static func random() -> String {
        UUID().uuidString.lowercased()
    }
}
