@testable import AppStoreJWS
import Foundation
import Testing

/// The strict base64 decoder against Foundation's, and every rule it refuses by.
@Suite struct Base64Tests {
    /// Foundation's padded standard text for `bytes`, and the unpadded URL-alphabet form.
    static func encodings(_ bytes: [UInt8]) -> (standard: String, url: String) {
        let standard = Data(bytes).base64EncodedString()
        let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return (standard, url)
    }

    @Test func everyLengthRoundTrips() {
        var generator = SystemRandomNumberGenerator()
        for count in 0 ..< 200 {
            let bytes = (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            let (standard, url) = Self.encodings(bytes)
            #expect(Base64.decodeStandard(Array(standard.utf8)[...]) == bytes, "\(count)")
            #expect(Base64.decodeURL(Array(url.utf8)[...]) == bytes, "\(count)")
        }
        // Every sextet in every position of a group.
        let all = (0 ... 255).map(UInt8.init)
        #expect(Base64.decodeURL(Array(Self.encodings(all).url.utf8)[...]) == all)
        #expect(Base64.decodeStandard(Array(Self.encodings(all).standard.utf8)[...]) == all)
    }

    @Test func everyByteOutsideTheAlphabetIsRefusedInEveryPosition() {
        let url = Array(Self.encodings(Array(0 ..< 12)).url.utf8)   // 16 characters, no tail
        let standard = Array(Self.encodings(Array(0 ..< 12)).standard.utf8)
        let urlAlphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let standardAlphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for byte in UInt8.min ... UInt8.max {
            for position in 0 ..< 4 {
                var text = url
                text[4 + position] = byte
                #expect((Base64.decodeURL(text[...]) != nil) == urlAlphabet.contains(byte), "\(byte) at \(position)")
                text = standard
                text[8 + position] = byte
                #expect((Base64.decodeStandard(text[...]) != nil) == standardAlphabet.contains(byte), "\(byte) at \(position)")
            }
            // In a last group of two or three characters too.
            for tail in [Array("QQ".utf8), Array("QUE".utf8)] {
                var text = url + tail
                text[text.count - 2] = byte
                #expect((Base64.decodeURL(text[...]) != nil) == urlAlphabet.contains(byte), "\(byte) in tail \(tail.count)")
            }
        }
    }

    @Test func lastGroupsOfEveryLengthAreChecked() {
        #expect(Base64.decodeURL(Array("QUE".utf8)[...]) == [0x41, 0x41])
        #expect(Base64.decodeURL(Array("QUF".utf8)[...]) == nil)   // leftover bits 01 (RFC 4648 §3.5)
        #expect(Base64.decodeURL(Array("QUFBQ".utf8)[...]) == nil)   // 4k + 1 characters
        #expect(Base64.decodeURL([][...]) == [])
    }

    @Test func urlAlphabetWithoutPadding() {
        #expect(Base64.decodeURL(Array("AQID".utf8)[...]) == [1, 2, 3])
        #expect(Base64.decodeURL(Array("_-8".utf8)[...]) == [0xFF, 0xEF])
        #expect(Base64.decodeURL(Array("AQ".utf8)[...]) == [1])
        #expect(Base64.decodeURL(Array("AQ==".utf8)[...]) == nil)   // padding
        #expect(Base64.decodeURL(Array("/+8".utf8)[...]) == nil)   // standard alphabet
        #expect(Base64.decodeURL(Array("AR".utf8)[...]) == nil)   // non-canonical: low bits set
        #expect(Base64.decodeURL(Array("A".utf8)[...]) == nil)   // impossible length
        #expect(Base64.decodeURL(Array("AQ D".utf8)[...]) == nil)   // whitespace
    }

    @Test func standardAlphabetWithPadding() {
        #expect(Base64.decodeStandard(Array("AQID".utf8)[...]) == [1, 2, 3])
        #expect(Base64.decodeStandard(Array("AQ==".utf8)[...]) == [1])
        #expect(Base64.decodeStandard(Array("AQI=".utf8)[...]) == [1, 2])
        #expect(Base64.decodeStandard(Array("/+8=".utf8)[...]) == [0xFF, 0xEF])
        #expect(Base64.decodeStandard(Array("AQ".utf8)[...]) == nil)   // padding missing
        #expect(Base64.decodeStandard(Array("A===".utf8)[...]) == nil)   // too much padding
        #expect(Base64.decodeStandard(Array("AR==".utf8)[...]) == nil)   // non-canonical
        #expect(Base64.decodeStandard(Array("_-8=".utf8)[...]) == nil)   // URL alphabet
        #expect(Base64.decodeStandard(Array("AQ=D".utf8)[...]) == nil)   // padding inside
    }
}
