/// The chaining state and compression function of one Merkle–Damgård hash (FIPS 180-4 §6).
protocol CompressionState: Sendable {
    /// Message block size in bytes: 64 (SHA-1, SHA-256) or 128 (SHA-384/512).
    static var blockByteCount: Int { get }
    /// Size of the message-length field that ends the padding: 8 or 16 bytes (FIPS 180-4 §5.1).
    static var lengthFieldByteCount: Int { get }
    /// Processes `count` consecutive blocks that start at `blocks` (any alignment).
    mutating func compress(_ blocks: UnsafeRawPointer, count: Int)
    /// Stores the state big-endian, truncated to `byteCount` bytes (FIPS 180-4 §6.x.2 step 4, §6.5-6.7).
    func store(into output: UnsafeMutableRawPointer, byteCount: Int)
}

/// Buffers input into whole blocks for a `CompressionState` and applies the final padding.
///
/// Allocation-free: the partial block lives inline. The total length is a 64-bit byte counter, so
/// the bit length is exact up to 2^64 − 1 bytes (the 128-bit field of SHA-384/512 takes its top bits).
struct BlockHasher<State: CompressionState>: Sendable {
    private var state: State
    /// 128 bytes: room for the largest block.
    private var buffer:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var bufferedByteCount = 0
    private var totalByteCount: UInt64 = 0
    private let digestByteCount: Int

    init(_ initialState: State, digestByteCount: Int) {
        self.state = initialState
        self.digestByteCount = digestByteCount
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var input = bytes.baseAddress, bytes.count > 0 else { return }
        var remaining = bytes.count
        totalByteCount &+= UInt64(truncatingIfNeeded: remaining)
        let blockByteCount = State.blockByteCount
        if bufferedByteCount > 0 {
            let taken = min(blockByteCount - bufferedByteCount, remaining)
            let start = bufferedByteCount
            withUnsafeMutableBytes(of: &buffer) { block in
                (block.baseAddress! + start).copyMemory(from: input, byteCount: taken)
            }
            bufferedByteCount += taken
            input += taken
            remaining -= taken
            guard bufferedByteCount == blockByteCount else { return }
            compressBuffer()
            bufferedByteCount = 0
        }
        let wholeBlocks = remaining / blockByteCount
        if wholeBlocks > 0 {
            state.compress(input, count: wholeBlocks)
            input += wholeBlocks * blockByteCount
            remaining -= wholeBlocks * blockByteCount
        }
        if remaining > 0 {
            withUnsafeMutableBytes(of: &buffer) { block in
                block.baseAddress!.copyMemory(from: input, byteCount: remaining)
            }
            bufferedByteCount = remaining
        }
    }

    /// Pads (FIPS 180-4 §5.1.1, §5.1.2) and returns the digest; `self` is left unchanged.
    func finalize() -> Digest {
        var last = self
        return last.pad()
    }

    private mutating func pad() -> Digest {
        let blockByteCount = State.blockByteCount
        let lengthByteCount = State.lengthFieldByteCount
        let bitCountLow = totalByteCount &<< 3
        let bitCountHigh = totalByteCount >> 61
        var used = bufferedByteCount
        withUnsafeMutableBytes(of: &buffer) { block in
            block[used] = 0x80
            used += 1
        }
        if used > blockByteCount - lengthByteCount {
            let start = used
            withUnsafeMutableBytes(of: &buffer) { block in
                _ = (block.baseAddress! + start).initializeMemory(as: UInt8.self, repeating: 0, count: blockByteCount - start)
            }
            compressBuffer()
            used = 0
        }
        let start = used
        withUnsafeMutableBytes(of: &buffer) { block in
            let end = blockByteCount - 8
            _ = (block.baseAddress! + start).initializeMemory(as: UInt8.self, repeating: 0, count: end - start)
            if lengthByteCount == 16 {
                block.storeBytes(of: bitCountHigh.bigEndian, toByteOffset: end - 8, as: UInt64.self)
            }
            block.storeBytes(of: bitCountLow.bigEndian, toByteOffset: end, as: UInt64.self)
        }
        compressBuffer()
        let state = self.state
        return Digest(byteCount: digestByteCount) { state.store(into: $0, byteCount: digestByteCount) }
    }

    private mutating func compressBuffer() {
        withUnsafeBytes(of: &buffer) { block in
            state.compress(block.baseAddress!, count: 1)
        }
    }
}
