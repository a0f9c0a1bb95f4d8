@testable import ReceiptService
import Testing

/// `RetentionFreshness`'s bounds to the millisecond, and dates at the ends of Int64.
@Suite struct RetentionFreshnessTests {
    static let now: Int64 = 1_767_225_600_000   // 2026-01-01T00:00:00Z

    static func fresh(_ signedDate: Int64) -> Bool {
        (try? RetentionFreshness.check(signedDate: signedDate, now: now)) != nil
    }

    @Test func bounds() {
        #expect(Self.fresh(Self.now))
        #expect(Self.fresh(Self.now - 300_000))
        #expect(!Self.fresh(Self.now - 300_001))
        #expect(Self.fresh(Self.now + 60_000))
        #expect(!Self.fresh(Self.now + 60_001))
        #expect(!Self.fresh(Int64.min))
        #expect(!Self.fresh(Int64.max))
        #expect(!Self.fresh(0))
    }

    @Test func refusalsAre401() throws {
        #expect(throws: RetentionRefusal(.notAuthentic, "signedDate is over 300 s old; real-time requests are answered for 300 s")) {
            try RetentionFreshness.check(signedDate: Int64.min, now: Self.now)
        }
        #expect(throws: RetentionRefusal(.notAuthentic, "signedDate is 61 s in the future")) {
            try RetentionFreshness.check(signedDate: Self.now + 61_000, now: Self.now)
        }
    }
}
