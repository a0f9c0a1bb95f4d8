// UTCTime and GeneralizedTime (X.680 §46–47, DER X.690 §11.7–11.8, RFC 5280 §4.1.2.5).
// Expected seconds since 1970 were computed with Python's datetime (UTC) when this file was written,
// e.g. `int(datetime(2049,12,31,23,59,59,tzinfo=timezone.utc).timestamp())`.

import Testing
@testable import DER
import TestHelpers

@Suite("UTCTime and GeneralizedTime")
struct TimeTests {
    enum TimeType: Sendable { case utc, generalized }

    struct TimeVector: Sendable, CustomTestStringConvertible {
        let name: String
        let type: TimeType
        let text: String
        let rules: EncodingRules
        /// Seconds since 1970, or nil when the text must be refused.
        let seconds: Int64?
        var testDescription: String { "\(name): \(text) [\(rules)]" }

        var bytes: [UInt8] { tlv(type == .utc ? 0x17 : 0x18, ascii: text) }
    }

    static func utc(_ name: String, _ text: String, _ rules: EncodingRules, _ seconds: Int64?) -> TimeVector {
        TimeVector(name: name, type: .utc, text: text, rules: rules, seconds: seconds)
    }
    static func gen(_ name: String, _ text: String, _ rules: EncodingRules, _ seconds: Int64?) -> TimeVector {
        TimeVector(name: name, type: .generalized, text: text, rules: rules, seconds: seconds)
    }

    /// Valid in both rule sets (canonical DER forms).
    static let canonical: [TimeVector] = {
        var v: [TimeVector] = []
        for rules in [EncodingRules.der, .ber] {
            v += [
                utc("epoch", "700101000000Z", rules, 0),
                utc("RFC 5280: 50 is 1950", "500101000000Z", rules, -631_152_000),
                utc("RFC 5280: 49 is 2049", "491231235959Z", rules, 2_524_607_999),
                utc("last second of 1999", "991231235959Z", rules, 946_684_799),
                utc("leap day 2000", "000229120000Z", rules, 951_825_600),
                utc("leap day 2024", "240229235959Z", rules, 1_709_251_199),
                utc("X.680 style example", "910506234540Z", rules, 673_573_540),
                utc("2^31 boundary", "380119031408Z", rules, 2_147_483_648),
                gen("plain", "20230101120000Z", rules, 1_672_574_400),
                gen("year 9999", "99991231235959Z", rules, 253_402_300_799),
                gen("year 0001", "00010101000000Z", rules, -62_135_596_800),
                gen("1950 in GeneralizedTime", "19500101000000Z", rules, -631_152_000),
                gen("leap day 2000 (divisible by 400)", "20000229000000Z", rules, 951_782_400),
                gen("leap day 1600", "16000229000000Z", rules, -11_670_998_400),
                gen("day after Feb 28 1900 is Mar 1", "19000301000000Z", rules, -2_203_891_200),
                gen("Xcode placeholder year 4001", "40010101000000Z", rules, 64_092_211_200),
                gen("fraction dropped", "20230101120000.5Z", rules, 1_672_574_400),
                gen("long fraction dropped", "20230101120000.123456789Z", rules, 1_672_574_400),
                gen("before 1970", "19691231235959Z", rules, -1),
            ]
        }
        return v
    }()

    /// Forms BER accepts and DER refuses (X.690 §11.7: seconds present, `.` only, no trailing zero, `Z`;
    /// §11.8: UTCTime with seconds and `Z`). Offsets are subtracted to get UTC.
    static let berOnly: [TimeVector] = [
        utc("no seconds", "2301011200Z", .ber, 1_672_574_400),
        utc("offset +0100", "230101120000+0100", .ber, 1_672_570_800),
        utc("offset -0130", "230101120000-0130", .ber, 1_672_579_800),
        utc("offset +0000", "230101120000+0000", .ber, 1_672_574_400),
        utc("no seconds, offset", "2301011200+0100", .ber, 1_672_570_800),
        utc("offset crosses into 1999", "000101003000+0100", .ber, 946_683_000),
        utc("offset crosses into 2050", "491231235959-0100", .ber, 2_524_611_599),
        utc("offset crosses into 1949", "500101000000+0100", .ber, -631_155_600),
        gen("no seconds", "202301011200Z", .ber, 1_672_574_400),
        gen("hour only", "2023010112Z", .ber, 1_672_574_400),
        gen("comma fraction", "20230101120000,5Z", .ber, 1_672_574_400),
        gen("fraction with trailing zero", "20230101120000.50Z", .ber, 1_672_574_400),
        gen("offset +0100", "20230101120000+0100", .ber, 1_672_570_800),
        gen("offset -05 (hours only)", "20230101120000-05", .ber, 1_672_592_400),
        gen("fraction and offset", "20230101120000.5+0100", .ber, 1_672_570_800),
    ]

    static let derRefusesBerForms: [TimeVector] = berOnly.map {
        TimeVector(name: $0.name, type: $0.type, text: $0.text, rules: .der, seconds: nil)
    }

    /// Refused in both rule sets.
    static let invalid: [TimeVector] = {
        var v: [TimeVector] = []
        for rules in [EncodingRules.der, .ber] {
            v += [
                utc("month 13", "231301120000Z", rules, nil),
                utc("month 00", "230001120000Z", rules, nil),
                utc("day 32", "230132120000Z", rules, nil),
                utc("day 00", "230100120000Z", rules, nil),
                utc("Feb 30", "240230120000Z", rules, nil),
                utc("Feb 29 in 2023", "230229120000Z", rules, nil),
                utc("Apr 31", "230431120000Z", rules, nil),
                utc("hour 24", "230101240000Z", rules, nil),
                utc("minute 60", "230101126000Z", rules, nil),
                utc("second 60", "230101120060Z", rules, nil),
                utc("missing Z", "230101120000", rules, nil),
                utc("lower-case z", "230101120000z", rules, nil),
                utc("non-digit", "23010112000AZ", rules, nil),
                utc("space for digit", "2301011200 0Z", rules, nil),
                utc("four-digit year", "20230101120000Z", rules, nil),
                utc("trailing character", "230101120000Z0", rules, nil),
                utc("fraction", "230101120000.5Z", rules, nil),
                utc("too short", "2301Z", rules, nil),
                utc("empty", "", rules, nil),
                utc("offset hours only", "230101120000+01", rules, nil),
                utc("offset hour 24", "230101120000+2400", rules, nil),
                utc("offset minute 60", "230101120000+0160", rules, nil),
                utc("hour only", "23010112Z", rules, nil),
                gen("Feb 29 1900 (not leap)", "19000229000000Z", rules, nil),
                gen("Feb 29 2100 (not leap)", "21000229000000Z", rules, nil),
                gen("month 13", "20231301000000Z", rules, nil),
                gen("day 32", "20230132000000Z", rules, nil),
                gen("hour 24 (midnight is 000000)", "20230101240000Z", rules, nil),
                gen("minute 60", "20230101126000Z", rules, nil),
                gen("local time without zone", "20230101120000", rules, nil),
                gen("empty fraction", "20230101120000.Z", rules, nil),
                gen("non-digit", "2023O101120000Z", rules, nil),
                gen("trailing character", "20230101120000ZZ", rules, nil),
                gen("offset hour 24", "20230101120000+2400", rules, nil),
            ]
        }
        v += [
            gen("§11.7 fraction trailing zero", "20230101120000.50Z", .der, nil),
            gen("§11.7 zero fraction", "20230101120000.0Z", .der, nil),
            gen("§11.7 zero fraction 000", "20230101120000.000Z", .der, nil),
            // In BER this reads as 2301-01-12T00:00Z (minutes without seconds); DER requires seconds.
            gen("two-digit year (no seconds in DER)", "230101120000Z", .der, nil),
        ]
        return v
    }()

    @Test("Times: value or invalidTime", arguments: canonical + berOnly + derRefusesBerForms + invalid)
    func time(_ v: TimeVector) throws {
        let bytes = v.bytes
        let outcome = caught {
            try withElement(bytes, v.rules) { e throws(ASN1Error) in
                v.type == .utc ? try e.utcTimeValue() : try e.generalizedTimeValue()
            }
        }
        if let seconds = v.seconds {
            #expect(outcome == nil)
            let value = try withElement(bytes, v.rules) { e throws(ASN1Error) in
                v.type == .utc ? try e.utcTimeValue() : try e.generalizedTimeValue()
            }
            #expect(value == seconds)
            // The X.509 CHOICE reader and the reader convenience agree.
            #expect(try withElement(bytes, v.rules) { e throws(ASN1Error) in try e.timeValue() } == seconds)
            #expect(try ASN1Reader.parse(bytes, rules: v.rules) { (r: inout ASN1Reader) throws(ASN1Error) -> Int64 in try r.readTime() } == seconds)
        } else {
            #expect(outcome == ASN1Error(.invalidTime, at: 0))
        }
    }

    @Test("Bad time nested: error at the time element's offset")
    func nestedBadTime() {
        // SEQUENCE { INTEGER 1, SEQUENCE { UTCTime ok, UTCTime month 13 } } — offsets 0, 2, 5, 7, 22.
        let bytes =
            [0x30, 0x23, 0x02, 0x01, 0x01, 0x30, 0x1E]
            + tlv(0x17, ascii: "230101120000Z") + tlv(0x17, ascii: "231301120000Z")
        #expect(caught { try decodeSingle(bytes, .der) } == ASN1Error(.invalidTime, at: 22))
    }

    @Test("timeValue refuses other tags")
    func timeValueTag() {
        #expect(
            caught { try withElement(tlv(0x16, ascii: "230101120000Z"), .der) { e throws(ASN1Error) in try e.timeValue() } }
                == ASN1Error(.unexpectedTag(expected: .utcTime, found: .ia5String), at: 0))
    }

    @Test("Writer: UTCTime 1950–2049, GeneralizedTime outside, read back")
    func writerTimes() throws {
        let cases: [(Int64, String)] = [
            (-631_152_000, "17 0D " + Hex.string(Array("500101000000Z".utf8))),
            (2_524_607_999, "17 0D " + Hex.string(Array("491231235959Z".utf8))),
            (2_524_608_000, "18 0F " + Hex.string(Array("20500101000000Z".utf8))),
            (-631_152_001, "18 0F " + Hex.string(Array("19491231235959Z".utf8))),
            (1_709_210_096, "17 0D " + Hex.string(Array("240229123456Z".utf8))),
            (253_402_300_799, "18 0F " + Hex.string(Array("99991231235959Z".utf8))),
        ]
        for (seconds, hex) in cases {
            var w = DERWriter()
            w.appendTime(seconds)
            #expect(w.bytes == Hex.bytes(hex), "\(seconds)")
            #expect(try ASN1Reader.parse(w.bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) -> Int64 in try r.readTime() } == seconds)
        }
        var w = DERWriter()
        w.appendGeneralizedTime(1_672_574_400)
        w.appendUTCTime(1_672_574_400)
        #expect(w.bytes == tlv(0x18, ascii: "20230101120000Z") + tlv(0x17, ascii: "230101120000Z"))
    }
}

@Suite("CivilTime")
struct CivilTimeTests {
    @Test(
        "Gregorian leap years: every 4th, not every 100th, every 400th",
        arguments: [
            (1900, false), (2000, true), (2024, true), (2023, false), (2100, false), (1600, true), (2400, true),
            (1, false), (4, true), (0, true), (9996, true), (9999, false),
        ])
    func leapYear(_ year: Int, _ leap: Bool) {
        #expect(CivilTime.isLeapYear(year) == leap)
        #expect(CivilTime.daysInMonth(2, year: year) == (leap ? 29 : 28))
    }

    @Test("Days in each month")
    func daysInMonth() {
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        for month in 1 ... 12 { #expect(CivilTime.daysInMonth(month, year: 2023) == lengths[month - 1]) }
    }

    /// Known instants from Python's datetime.
    static let instants: [(CivilTime.Components, Int64)] = [
        (CivilTime.Components(year: 1970, month: 1, day: 1), 0),
        (CivilTime.Components(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59), -1),
        (CivilTime.Components(year: 1969, month: 12, day: 30, hour: 23, minute: 59, second: 59), -86_401),
        (CivilTime.Components(year: 1900, month: 2, day: 28), -2_203_977_600),
        (CivilTime.Components(year: 1900, month: 3, day: 1), -2_203_891_200),
        (CivilTime.Components(year: 2000, month: 2, day: 29, hour: 12), 951_825_600),
        (CivilTime.Components(year: 2100, month: 3, day: 1), 4_107_542_400),
        (CivilTime.Components(year: 1582, month: 10, day: 15), -12_219_292_800),
        (CivilTime.Components(year: 1, month: 1, day: 1), -62_135_596_800),
        (CivilTime.Components(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59), 253_402_300_799),
        (CivilTime.Components(year: 2016, month: 12, day: 31, hour: 23, minute: 59, second: 59), 1_483_228_799),
        (CivilTime.Components(year: 2038, month: 1, day: 19, hour: 3, minute: 14, second: 8), 2_147_483_648),
    ]

    /// Seconds far past 2038 (Int32's end) and milliseconds-sized values: computed in Int64 on every
    /// platform; the year of Int64.max seconds is 292,277,026,596, beyond a 32-bit Int, where it is
    /// clamped instead of trapping.
    @Test("Instants beyond 32 bits: computed in Int64, no trap")
    func instantsBeyond32Bits() {
        let y10k = CivilTime.Components(year: 10_000, month: 1, day: 1)
        #expect(CivilTime.secondsSince1970(y10k) == 253_402_300_800)
        #expect(CivilTime.components(secondsSince1970: 253_402_300_800) == y10k)
        // 1 700 000 000 000 taken as seconds (a millisecond value by mistake): year 55 840.
        #expect(CivilTime.components(secondsSince1970: 1_700_000_000_000).year == 55_840)
        let last = CivilTime.components(secondsSince1970: .max)
        #expect(Int64(exactly: 292_277_026_596).map { Int(clamping: $0) } == last.year)
        #expect(CivilTime.components(secondsSince1970: .min).year == Int(clamping: -292_277_022_657 as Int64))
    }

    @Test("Known instants", arguments: instants)
    func knownInstants(_ c: CivilTime.Components, _ seconds: Int64) {
        #expect(CivilTime.secondsSince1970(c) == seconds)
        #expect(CivilTime.components(secondsSince1970: seconds) == c)
    }

    @Test(
        "Invalid components are nil",
        arguments: [
            CivilTime.Components(year: 2023, month: 0, day: 1),
            CivilTime.Components(year: 2023, month: 13, day: 1),
            CivilTime.Components(year: 2023, month: 1, day: 0),
            CivilTime.Components(year: 2023, month: 1, day: 32),
            CivilTime.Components(year: 2023, month: 2, day: 29),
            CivilTime.Components(year: 1900, month: 2, day: 29),
            CivilTime.Components(year: 2023, month: 4, day: 31),
            CivilTime.Components(year: 2023, month: 1, day: 1, hour: 24),
            CivilTime.Components(year: 2023, month: 1, day: 1, hour: -1),
            CivilTime.Components(year: 2023, month: 1, day: 1, minute: 60),
            CivilTime.Components(year: 2023, month: 1, day: 1, second: 60),
            CivilTime.Components(year: 2023, month: 1, day: 1, second: -1),
            CivilTime.Components(year: 1_000_001, month: 1, day: 1),
            // abs(Int.min) would trap: the year range is checked without it.
            CivilTime.Components(year: Int.min, month: 1, day: 1),
            CivilTime.Components(year: Int.max, month: 12, day: 31),
        ])
    func invalidComponents(_ c: CivilTime.Components) {
        #expect(CivilTime.secondsSince1970(c) == nil)
    }

    /// Every day from 0001-01-01 to 9999-12-31, against a calendar stepped one day at a time
    /// (independent of the Hinnant formulas), with a time of day that varies.
    @Test("Every day of years 1–9999 round-trips against a stepped calendar")
    func everyDay() {
        var year = 1, month = 1, day = 1
        var days: Int64 = -719_162   // 0001-01-01 (Python: date(1,1,1) - date(1970,1,1))
        var failures = 0
        while year <= 9999 {
            let secondOfDay = Int64((days &* 7919) & 0xFFFF) % 86_400
            let seconds = days * 86_400 + secondOfDay
            let expected = CivilTime.Components(
                year: year, month: month, day: day, hour: Int(secondOfDay / 3600),
                minute: Int(secondOfDay % 3600 / 60), second: Int(secondOfDay % 60))
            if CivilTime.components(secondsSince1970: seconds) != expected
                || CivilTime.secondsSince1970(expected) != seconds
                || CivilTime.daysSince1970(year: year, month: month, day: day) != days
            {
                failures += 1
                if failures <= 5 { Issue.record("mismatch at \(expected) / \(seconds)") }
            }
            // Step one day.
            day += 1
            if day > CivilTime.daysInMonth(month, year: year) {
                day = 1
                month += 1
                if month > 12 { month = 1; year += 1 }
            }
            days += 1
        }
        #expect(failures == 0)
        #expect(days == 2_932_897)   // 10000-01-01 (Python: date(9999,12,31) - date(1970,1,1) = 2932896)
    }

    @Test("Negative seconds keep the time of day in 0..<86400")
    func negativeSeconds() {
        #expect(CivilTime.components(secondsSince1970: -86_400) == CivilTime.Components(year: 1969, month: 12, day: 31))
        #expect(CivilTime.components(secondsSince1970: -86_399) == CivilTime.Components(year: 1969, month: 12, day: 31, second: 1))
        #expect(
            CivilTime.components(secondsSince1970: -62_135_596_801)
                == CivilTime.Components(year: 0, month: 12, day: 31, hour: 23, minute: 59, second: 59))
    }
}
