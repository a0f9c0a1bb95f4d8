import Foundation
import Testing

@testable import AppReceipt

/// `Base64Text.decodePadded` (the decoder of Embedded Swift builds, where Foundation does not
/// exist) against Foundation's `Data(base64Encoded:)`, which native builds use.
struct Base64TextTests {
    /// Encodings of every length 0…70 of pseudo-random bytes, and each with one character
    /// changed: both decoders give the same bytes, or both refuse.
    @Test func agreesWithFoundationOnEncodingsAndTheirCorruptions() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=!".utf8)
        var compared = 0
        for length in 0 ... 70 {
            let bytes = (0 ..< length).map { _ in UInt8(truncatingIfNeeded: next()) }
            let text = Array(Data(bytes).base64EncodedString().utf8)
            #expect(Base64Text.decodePadded(text) == bytes)
            for _ in 0 ..< 20 where !text.isEmpty {
                var changed = text
                changed[Int(next() % UInt64(text.count))] = alphabet[Int(next() % UInt64(alphabet.count))]
                let foundation = Data(base64Encoded: Data(changed)).map { [UInt8]($0) }
                if Self.foundationOnly(changed) { continue }
                #expect(Base64Text.decodePadded(changed) == foundation, "\(String(decoding: changed, as: UTF8.self))")
                compared += 1
            }
        }
        #expect(compared > 1000)
    }

    /// The paddings only Foundation accepts: `=` before a character of the alphabet.
    @Test func refusesPaddingInsideAGroup() {
        #expect(Data(base64Encoded: "QQ=A") != nil)
        #expect(Base64Text.decodePadded(Array("QQ=A".utf8)) == nil)
        #expect(Base64Text.decodePadded(Array("QQ==".utf8)) == [0x41])
        #expect(Base64Text.decodePadded(Array("QR==".utf8)) == [0x41])   // unused bits ignored, as Foundation does
        #expect(Base64Text.decodePadded(Array("QQ".utf8)) == nil)
    }

    /// Whether `text` has an `=` followed by something other than `=` (a padding only
    /// Foundation decodes; documented in Wasm/README.md).
    static func foundationOnly(_ text: [UInt8]) -> Bool {
        guard let first = text.firstIndex(of: UInt8(ascii: "=")) else { return false }
        return text[first...].contains { $0 != UInt8(ascii: "=") } || text.count - first > 2
    }
}
