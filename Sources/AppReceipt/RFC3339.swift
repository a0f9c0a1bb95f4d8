import DER

/// The date strings receipts carry: RFC 3339 as Apple writes it (`2024-02-23T17:27:16Z`), plus
/// what Xcode writes (`2020-07-22T18:33:15+0100`: offsets without a colon) and optional
/// fractional seconds. Parsed by hand: fast, and identical on every platform.
enum RFC3339 {
    /// Milliseconds since 1970, or `nil` when `text` is not such a date.
    static func milliseconds(_ text: UnsafeRawBufferPointer) -> Int64? {
        var i = 0
        func number(_ count: Int) -> Int? {
            guard text.count - i >= count else { return nil }
            var value = 0
            for _ in 0 ..< count {
                let c = text[i]
                guard c >= 0x30, c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
                i += 1
            }
            return value
        }
        func expect(_ characters: UInt8...) -> Bool {
            guard i < text.count, characters.contains(text[i]) else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
              expect(0x54, 0x74, 0x20), let hour = number(2), expect(0x3A), let minute = number(2),
              expect(0x3A), let second = number(2)
        else { return nil }
        // Fraction: keep milliseconds, ignore further digits.
        var millis = 0
        if i < text.count, text[i] == 0x2E {
            i += 1
            var digits = 0
            while i < text.count, text[i] >= 0x30, text[i] <= 0x39 {
                if digits < 3 { millis = millis * 10 + Int(text[i] - 0x30) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            while digits < 3 { millis *= 10; digits += 1 }
        }
        // Zone: Z, or ±HH:MM, or ±HHMM.
        var offset = 0
        guard i < text.count else { return nil }
        let zone = text[i]
        i += 1
        if zone == 0x2B || zone == 0x2D {
            guard let hours = number(2), hours <= 23 else { return nil }
            _ = expect(0x3A)
            guard let minutes = number(2), minutes <= 59 else { return nil }
            offset = (hours * 60 + minutes) * 60 * (zone == 0x2B ? 1 : -1)
        } else if zone != 0x5A && zone != 0x7A {
            return nil
        }
        guard i == text.count else { return nil }
        let components = CivilTime.Components(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let seconds = CivilTime.secondsSince1970(components) else { return nil }
        return (seconds - Int64(offset)) * 1000 + Int64(millis)
    }
}
