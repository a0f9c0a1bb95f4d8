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

/// Lanes read big-endian (FIPS 180-4 §3.1) from a native load.
@inline(__always)
func bigEndianLanes(_ v: SIMD4<UInt32>) -> SIMD4<UInt32> {
    #if _endian(little)
        return (v &<< 24) | ((v &<< 8) & SIMD4(repeating: 0x00ff_0000)) | ((v &>> 8) & SIMD4(repeating: 0x0000_ff00)) | (v &>> 24)
    #else
        return v
    #endif
}
