import DER

/// The date strings receipts carry: RFC 3339 as Apple writes it (`2024-02-23T17:27:16Z`), plus
/// what Xcode writes (`2020-07-22T18:33:15+0100`: offsets without a colon) and optional
/// fractional seconds. Parsed by hand: fast, and identical on every platform.
package enum RFC3339 {
    /// Milliseconds since 1970 of `text`, or `nil` when it is not such a date.
    package static func milliseconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { milliseconds(UnsafeRawBufferPointer($0)) }
    }

    /// Milliseconds since 1970, or `nil` when `text` is not such a date.
    static func milliseconds(_ text: UnsafeRawBufferPointer) -> Int64? {
        if text.count == 20, let milliseconds = appleForm(text) { return milliseconds }
        return anyForm(text)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the form of every App Store date, checked and read eight
    /// characters at a time; `nil` means "not this form" (the general parser then decides).
    @inline(__always)
    static func appleForm(_ text: UnsafeRawBufferPointer) -> Int64? {
        // Little-endian lanes: "YYYY-MM-" (0…7), "DDTHH:MM" (8…15), "H:MM:SSZ" (12…19).
        let a = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        let b = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let c = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
        // Digit lanes (0xFF) and the separators expected in the others.
        let digitsA: UInt64 = 0x00FF_FF00_FFFF_FFFF, separatorsA: UInt64 = 0x2D00_002D_0000_0000   // - at 4 and 7
        let digitsB: UInt64 = 0xFFFF_00FF_FF00_FFFF, separatorsB: UInt64 = 0x0000_3A00_0054_0000   // T at 10, : at 13
        let digitsC: UInt64 = 0x00FF_FF00_FFFF_00FF, separatorsC: UInt64 = 0x5A00_003A_0000_3A00   // : at 13 and 16, Z at 19
        func digitValues(_ word: UInt64, _ lanes: UInt64, _ separators: UInt64) -> UInt64? {
            let values = (word & lanes) ^ (0x3030_3030_3030_3030 & lanes)   // '0'…'9' → 0…9
            let highNibbles = 0xF0F0_F0F0_F0F0_F0F0 & lanes
            guard word & ~lanes == separators, values & highNibbles == 0,
                (values &+ (0x0606_0606_0606_0606 & lanes)) & highNibbles == 0
            else { return nil }
            return values
        }
        guard let da = digitValues(a, digitsA, separatorsA), let db = digitValues(b, digitsB, separatorsB),
            let dc = digitValues(c, digitsC, separatorsC)
        else { return nil }
        @inline(__always) func lane(_ word: UInt64, _ i: UInt64) -> Int { Int(truncatingIfNeeded: word >> (8 * i)) & 0xFF }
        let year = lane(da, 0) * 1000 + lane(da, 1) * 100 + lane(da, 2) * 10 + lane(da, 3)
        let month = lane(da, 5) * 10 + lane(da, 6)
        let day = lane(db, 0) * 10 + lane(db, 1)
        let hour = lane(db, 3) * 10 + lane(db, 4)
        let minute = lane(db, 6) * 10 + lane(db, 7)
        let second = lane(dc, 5) * 10 + lane(dc, 6)
        let components = CivilTime.Components(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let seconds = CivilTime.secondsSince1970(components) else { return nil }
        return seconds * 1000
    }

    /// Every accepted form, character by character.
    static func anyForm(_ text: UnsafeRawBufferPointer) -> Int64? {
        // `YYYY-MM-DDTHH:MM:SS` at fixed positions (RFC 3339 §5.6; `t` and a space allowed for T).
        guard text.count >= 20 else { return nil }
        var largest: UInt8 = 0   // the largest digit value seen: above 9 means a non-digit
        @inline(__always) func digit(_ i: Int) -> Int {
            let value = text[i] &- 0x30
            largest = max(largest, value)
            return Int(value)
        }
        let year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)
        let month = digit(5) * 10 + digit(6), day = digit(8) * 10 + digit(9)
        let hour = digit(11) * 10 + digit(12), minute = digit(14) * 10 + digit(15), second = digit(17) * 10 + digit(18)
        let separator = text[10]
        guard largest <= 9, text[4] == 0x2D, text[7] == 0x2D, text[13] == 0x3A, text[16] == 0x3A,
            separator == 0x54 || separator == 0x74 || separator == 0x20
        else { return nil }
        var i = 19
        // Fraction: milliseconds kept, further digits ignored.
        var millis = 0
        if text[i] == 0x2E {
            i += 1
            let first = i
            while i < text.count, text[i] >= 0x30, text[i] <= 0x39 {
                if i - first < 3 { millis = millis * 10 + Int(text[i] - 0x30) }
                i += 1
            }
            guard i > first else { return nil }
            for _ in min(i - first, 3) ..< 3 { millis *= 10 }
        }
        // Zone: `Z`, or `±HH:MM`, or `±HHMM` (Xcode).
        guard i < text.count else { return nil }
        var offset = 0
        switch text[i] {
        case 0x5A, 0x7A:
            guard i + 1 == text.count else { return nil }
        case 0x2B, 0x2D:
            let sign = text[i] == 0x2B ? 1 : -1
            let colon = text.count - i == 6 && text[i + 3] == 0x3A
            guard text.count - i == (colon ? 6 : 5), let hours = digits(text, i + 1, 2),
                let minutes = digits(text, i + (colon ? 4 : 3), 2), hours <= 23, minutes <= 59
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        default:
            return nil
        }
        let components = CivilTime.Components(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let seconds = CivilTime.secondsSince1970(components) else { return nil }
        return (seconds - Int64(offset)) * 1000 + Int64(millis)
    }

    /// `count` decimal digits at `index` (which the caller has bounds-checked).
    @inline(__always)
    private static func digits(_ text: UnsafeRawBufferPointer, _ index: Int, _ count: Int) -> Int? {
        var value = 0
        for i in index ..< index + count {
            let digit = text[i] &- 0x30
            guard digit <= 9 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }
}
