@testable import AppReceipt
import Testing

/// The eight-characters-at-a-time reader of `YYYY-MM-DDTHH:MM:SSZ` agrees with the
/// character-by-character one on every input of that length: valid dates, and every single
/// character of a date replaced by each of a set of troublemakers.
struct RFC3339FastPathTests {
    static let samples = [
        "2024-02-23T17:27:16Z", "1970-01-01T00:00:00Z", "2000-02-29T23:59:59Z", "9999-12-31T23:59:59Z",
        "0001-01-01T00:00:00Z", "2023-02-29T12:00:00Z", "2024-13-01T00:00:00Z", "2024-04-31T24:00:00Z",
    ]
    static let replacements: [UInt8] = Array("0123456789:-TtZz +/ \u{7F}".utf8) + [0x00, 0x2F, 0x3A, 0x80, 0xB0, 0xFF]

    @Test func fastPathAgreesWithGeneralParser() {
        var checked = 0
        for sample in Self.samples {
            let original = Array(sample.utf8)
            var candidates = [original]
            for position in original.indices {
                for replacement in Self.replacements {
                    var mutated = original
                    mutated[position] = replacement
                    candidates.append(mutated)
                }
            }
            for candidate in candidates {
                candidate.withUnsafeBytes { bytes in
                    let general = RFC3339.anyForm(bytes)
                    if let fast = RFC3339.appleForm(bytes) {
                        #expect(fast == general, "\(String(decoding: candidate, as: UTF8.self))")
                    }
                    #expect(RFC3339.milliseconds(bytes) == general)
                }
                checked += 1
            }
        }
        #expect(checked > 1000)
    }

    @Test func fastPathReadsAppleDates() {
        let text = Array("2024-02-23T17:27:16Z".utf8)
        // 2024-02-23T17:27:16Z is 1708709236 s after 1970 (the production fixture's creation date).
        #expect(text.withUnsafeBytes { RFC3339.appleForm($0) } == 1_708_709_236_000)
    }
}
