import Testing

@testable import ReceiptStore

/// `StoreStatements.paddedList`: SQLite `IN` lists padded to a power of two by repeating the last
/// id, so that a connection caches at most one statement text per power of two.
@Suite struct PaddedListTests {
    @Test func listsKeepTheirIDsAndRepeatTheLast() {
        #expect(StoreStatements.paddedList([]) == [])
        #expect(StoreStatements.paddedList(["a"]) == ["a"])
        #expect(StoreStatements.paddedList(["a", "b"]) == ["a", "b"])
        #expect(StoreStatements.paddedList(["a", "b", "c"]) == ["a", "b", "c", "c"])
        #expect(StoreStatements.paddedList(["a", "b", "c", "d", "e"]) == ["a", "b", "c", "d", "e", "e", "e", "e"])
        for count in [6, 7, 8, 9, 100, 1_023, 1_024, 1_025] {
            let ids = (0 ..< count).map(String.init)
            let padded = StoreStatements.paddedList(ids)
            #expect(padded.count == StoreStatements.paddedCount(count))
            #expect(Array(padded.prefix(count)) == ids && Set(padded) == Set(ids), "\(count)")
        }
    }

    /// Every size up to the largest customer (`maxCustomerRows` originals) is padded to the least
    /// power of two not below it: 15 texts per statement at most.
    @Test func sizesArePowersOfTwo() {
        var sizes = Set<Int>()
        for count in 1 ... SignedDataStatements.maxCustomerRows {
            let size = StoreStatements.paddedCount(count)
            #expect(size.nonzeroBitCount == 1 && size >= count && size < 2 * count, "\(count) → \(size)")
            sizes.insert(size)
        }
        #expect(sizes.count == 15)
    }
}
