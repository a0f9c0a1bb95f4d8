// UTCTime and GeneralizedTime (X.680 §46–47; DER forms X.690 §11.7–11.8), read as seconds
// since 1970 in a plain integer (no Foundation in this layer).

extension ASN1Element {
    /// UTCTime as seconds since 1970. Two-digit years 50–99 are 19xx, 00–49 are 20xx (RFC 5280
    /// §4.1.2.5.1). DER requires `YYMMDDHHMMSSZ`; BER also accepts omitted seconds and `±hhmm`.
    @inlinable
    public func utcTimeValue() throws(ASN1Error) -> Int64 {
        guard !tag.isConstructed, let seconds = TimeText.parse(content, fourDigitYear: false, der: rules == .der) else {
            throw error(.invalidTime)
        }
        return seconds
    }

    /// GeneralizedTime as seconds since 1970 (fractions of a second dropped). DER requires
    /// `YYYYMMDDHHMMSS[.f]Z` with no trailing zero in the fraction (X.690 §11.7); BER also accepts
    /// omitted minutes or seconds, `,` as decimal mark and `±hh[mm]` offsets. Local time without a
    /// zone is rejected: it names no instant.
    @inlinable
    public func generalizedTimeValue() throws(ASN1Error) -> Int64 {
        guard !tag.isConstructed, let seconds = TimeText.parse(content, fourDigitYear: true, der: rules == .der) else {
            throw error(.invalidTime)
        }
        return seconds
    }

    /// X.509 `Time ::= CHOICE { utcTime, generalTime }` (RFC 5280 §4.1.2.5).
    @inlinable
    public func timeValue() throws(ASN1Error) -> Int64 {
        switch tag {
        case .utcTime: return try utcTimeValue()
        case .generalizedTime: return try generalizedTimeValue()
        default: throw error(.unexpectedTag(expected: .utcTime, found: tag))
        }
    }
}

extension ASN1Reader {
    /// Reads a UTCTime or GeneralizedTime as seconds since 1970.
    @inlinable public mutating func readTime() throws(ASN1Error) -> Int64 { try readElement().timeValue() }
}

/// The time-string grammar shared by both types.
@usableFromInline
enum TimeText {
    @usableFromInline
    static func parse(_ text: UnsafeRawBufferPointer, fourDigitYear: Bool, der: Bool) -> Int64? {
        var scanner = DigitScanner(text)
        let year: Int
        if fourDigitYear {
            guard let y = scanner.digits(4) else { return nil }
            year = y
        } else {
            guard let yy = scanner.digits(2) else { return nil }
            year = yy >= 50 ? 1900 + yy : 2000 + yy
        }
        guard let month = scanner.digits(2), let day = scanner.digits(2), let hour = scanner.digits(2) else { return nil }
        var minute = 0, second = 0, hasSeconds = false
        if let m = scanner.digits(2) {
            minute = m
            if let s = scanner.digits(2) { second = s; hasSeconds = true } else if der { return nil }
        } else if der || !fourDigitYear {
            return nil   // UTCTime always has minutes
        }
        // Fraction of a second (GeneralizedTime, after seconds): DER `.` and no trailing zero.
        if fourDigitYear, hasSeconds, let mark = scanner.peek, mark == UInt8(ascii: ".") || mark == UInt8(ascii: ",") {
            if der && mark != UInt8(ascii: ".") { return nil }
            scanner.advance()
            var fractionDigits = 0
            var lastDigit: UInt8 = 0
            while let c = scanner.peek, c >= 0x30, c <= 0x39 { lastDigit = c; fractionDigits += 1; scanner.advance() }
            if fractionDigits == 0 || (der && lastDigit == UInt8(ascii: "0")) { return nil }
        }
        // Zone: `Z`, or (BER) an offset that is subtracted to get UTC.
        var offsetSeconds = 0
        guard let zone = scanner.peek else { return nil }
        scanner.advance()
        if zone == UInt8(ascii: "+") || zone == UInt8(ascii: "-") {
            if der { return nil }
            guard let hh = scanner.digits(2), hh <= 23 else { return nil }
            var mm = 0
            if let m = scanner.digits(2) { mm = m } else if !fourDigitYear { return nil }
            guard mm <= 59 else { return nil }
            offsetSeconds = (hh * 3600 + mm * 60) * (zone == UInt8(ascii: "+") ? 1 : -1)
        } else if zone != UInt8(ascii: "Z") {
            return nil
        }
        guard scanner.isAtEnd else { return nil }
        let components = CivilTime.Components(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let local = CivilTime.secondsSince1970(components) else { return nil }
        return local - Int64(offsetSeconds)
    }
}

/// Reads fixed-width decimal fields from ASCII text.
@usableFromInline
struct DigitScanner {
    @usableFromInline let text: UnsafeRawBufferPointer
    @usableFromInline var index = 0

    @usableFromInline init(_ text: UnsafeRawBufferPointer) { self.text = text }

    @usableFromInline var isAtEnd: Bool { index == text.count }
    @usableFromInline var peek: UInt8? { index < text.count ? text[index] : nil }
    @usableFromInline mutating func advance() { index += 1 }

    /// The next `count` characters as a decimal number if they are all digits; otherwise `nil`
    /// and nothing consumed.
    @usableFromInline
    mutating func digits(_ count: Int) -> Int? {
        guard text.count - index >= count else { return nil }
        var value = 0
        for i in index ..< index + count {
            let c = text[i]
            guard c >= 0x30, c <= 0x39 else { return nil }
            value = value * 10 + Int(c - 0x30)
        }
        index += count
        return value
    }
}
