import ReceiptStore
import Testing

/// `DecimalText`: the one check behind transaction ids, history dates and the subscriptions
/// command's `--at`: ASCII digits only, within a length, within `Int64`.
@Suite struct DecimalTextTests {
    @Test func onlyASCIIDigitsOfTheLength() {
        #expect(DecimalText.isDigits("0123456789", lengths: 1 ... 32))
        #expect(DecimalText.isDigits(String(repeating: "9", count: 32), lengths: 1 ... 32))
        #expect(!DecimalText.isDigits(String(repeating: "9", count: 33), lengths: 1 ... 32))
        for text in ["", "12a", "+1", "-1", " 1", "1 ", "1.0", "１２", "1e3", "0x1"] {
            #expect(!DecimalText.isDigits(text, lengths: 1 ... 32), "\(text)")
        }
    }

    @Test func integersWithinTheirDigitsAndInt64() {
        #expect(DecimalText.integer("0", maxDigits: 15) == 0)
        #expect(DecimalText.integer("000123", maxDigits: 15) == 123)
        #expect(DecimalText.integer("999999999999999", maxDigits: 15) == 999_999_999_999_999)
        #expect(DecimalText.integer("1000000000000000", maxDigits: 15) == nil)
        #expect(DecimalText.integer("9223372036854775807", maxDigits: 19) == Int64.max)
        #expect(DecimalText.integer("9223372036854775808", maxDigits: 19) == nil)
        #expect(DecimalText.integer("-1", maxDigits: 19) == nil)
        #expect(DecimalText.integer("", maxDigits: 19) == nil)
    }
}
