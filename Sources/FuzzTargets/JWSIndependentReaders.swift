// Readers the jws harness checks AppStoreJWS against, written apart from it: Foundation's JSON and
// base64, with the canonical-form rules stated here.

import Foundation
import ReceiptTestSupport

/// What `JSONSerialization` reads: the value, or nil when it refuses the bytes. It also refuses
/// numbers beyond Double's range (`1e400`), which RFC 8259 §6 allows an implementation to do;
/// `AppStoreJWS` keeps numbers as text and accepts them, so such documents are not compared.
struct FoundationJSON {
    let value: Any?
    let isOutOfRange: Bool

    init(_ bytes: [UInt8], fragments: Bool = false) {
        do {
            value = try JSONSerialization.jsonObject(with: Data(bytes), options: fragments ? .fragmentsAllowed : [])
            isOutOfRange = false
        } catch {
            value = nil
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            isOutOfRange = reason?.contains("is not representable") ?? false
        }
    }
}

/// Base64 decoding written apart from the library's: Foundation decodes, and only canonical text
/// is accepted — the one text that re-encodes to itself (RFC 4648 §3.5) — so any difference from
/// `AppStoreJWS`'s strict decoder is a finding.
enum IndependentBase64 {
    /// Unpadded base64url (RFC 7515 §2).
    static func decodeURL(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard !text.isEmpty, text.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }) else { return nil }
        var standard = String(decoding: text, as: UTF8.self).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { return nil }
        let bytes = [UInt8](data)
        return TestJWS.base64URL(bytes).utf8.elementsEqual(text) ? bytes : nil
    }

    /// Padded standard base64 (RFC 4648 §4), as `x5c` entries are (RFC 7515 §4.1.6).
    static func decodeStandard(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard text.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "=") }),
            let data = Data(base64Encoded: String(decoding: text, as: UTF8.self))
        else { return nil }
        let bytes = [UInt8](data)
        return TestJWS.base64(bytes).utf8.elementsEqual(text) ? bytes : nil
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A") ... UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte)
    }
}
