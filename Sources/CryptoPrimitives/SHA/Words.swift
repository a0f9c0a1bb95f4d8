// Word helpers shared by the SHA compression functions (FIPS 180-4 §2.2.2, §3.1).

/// Word `index` of a block, read big-endian (FIPS 180-4 §3.1).
@inline(__always)
func bigEndianWord<Word: FixedWidthInteger>(_ block: UnsafeRawPointer, _ index: Int, as _: Word.Type) -> Word {
    Word(bigEndian: block.loadUnaligned(fromByteOffset: MemoryLayout<Word>.size * index, as: Word.self))
}

/// ROTR^n(x) (§2.2.2), `n` in 1…bitWidth−1.
@inline(__always)
func rotateRight<Word: FixedWidthInteger & UnsignedInteger>(_ x: Word, _ n: Word) -> Word {
    (x &>> n) | (x &<< (Word(Word.bitWidth) &- n))
}

/// ROTL^n(x) (§2.2.2), `n` in 1…bitWidth−1.
@inline(__always)
func rotateLeft<Word: FixedWidthInteger & UnsignedInteger>(_ x: Word, _ n: Word) -> Word {
    (x &<< n) | (x &>> (Word(Word.bitWidth) &- n))
}
