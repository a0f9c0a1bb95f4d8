// What Embedded Swift needs from a C library, for wasm32-unknown-none-wasm, in Swift: memory
// (posix_memalign, free, memcpy, memmove, memset) and random bytes for hashing seeds
// (arc4random_buf). The module's memory grows through its host (`receipt.grow_memory`, which
// Wasm/receipt.mjs implements with WebAssembly.Memory.grow), so no C file is needed.

@_extern(wasm, module: "receipt", name: "grow_memory")
@_extern(c)
func hostGrowMemory(_ pages: Int32) -> Int32

@_extern(wasm, module: "receipt", name: "putchar")
@_extern(c)
func hostPutchar(_ character: Int32)

/// The one output of the runtime: a fatal error's message, before the trap. The host
/// (Wasm/receipt.mjs) keeps the bytes and adds them to the error it reports.
@_cdecl("putchar")
public func putchar(_ character: Int32) -> Int32 {
    hostPutchar(character)
    return character
}

/// A size-class allocator: blocks of 2^k bytes (k = 5 … 31), each kept on its class's free list
/// when freed and handed out again; new blocks are cut from pages the host adds. Every block
/// starts with a 16-byte header (class, offset of the block start) just before what the
/// caller gets, so `free` needs only the pointer.
enum Heap {
    nonisolated(unsafe) static var freeLists = (
        UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0),
        UInt(0),
        UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0)
    )
    /// Where the next new block starts, and where the grown memory ends.
    nonisolated(unsafe) static var next: UInt = 0
    nonisolated(unsafe) static var end: UInt = 0

    static let pageSize: UInt = 65_536

    static func head(_ sizeClass: Int) -> UInt {
        withUnsafeBytes(of: &freeLists) { $0.load(fromByteOffset: sizeClass * MemoryLayout<UInt>.stride, as: UInt.self) }
    }

    static func setHead(_ sizeClass: Int, _ value: UInt) {
        withUnsafeMutableBytes(of: &freeLists) { $0.storeBytes(of: value, toByteOffset: sizeClass * MemoryLayout<UInt>.stride, as: UInt.self) }
    }

    /// A block of at least `size` bytes whose returned address is a multiple of `alignment`.
    static func allocate(_ size: UInt, alignment: UInt) -> UnsafeMutableRawPointer? {
        let alignment = max(alignment, 16)
        let needed = size + 16 + (alignment - 16)
        guard needed >= size, needed <= 1 << 31 else { return nil }
        var sizeClass = 5
        while (UInt(1) << UInt(sizeClass)) < needed { sizeClass += 1 }
        let blockSize = UInt(1) << UInt(sizeClass)
        var block = head(sizeClass)
        if block != 0 {
            setHead(sizeClass, UnsafeMutableRawPointer(bitPattern: block)!.load(as: UInt.self))
        } else {
            guard let fresh = cut(blockSize) else { return nil }
            block = fresh
        }
        let user = (block + 16 + alignment - 1) / alignment * alignment
        let header = UnsafeMutableRawPointer(bitPattern: user - 8)!
        header.storeBytes(of: UInt32(sizeClass), as: UInt32.self)
        header.storeBytes(of: UInt32(user - block), toByteOffset: 4, as: UInt32.self)
        return UnsafeMutableRawPointer(bitPattern: user)
    }

    /// `size` new bytes at the end of the heap, growing memory when needed.
    static func cut(_ size: UInt) -> UInt? {
        if next + size > end {
            let missing = next + size - end
            let pages = (missing + pageSize - 1) / pageSize
            let previous = hostGrowMemory(Int32(truncatingIfNeeded: pages))
            guard previous >= 0 else { return nil }
            let grownStart = UInt(previous) * pageSize
            if grownStart != end { next = grownStart }   // the first growth, or memory grown by another
            end = grownStart + pages * pageSize
            if next + size > end { return cut(size) }
        }
        let block = next
        next += size
        return block
    }

    static func free(_ pointer: UnsafeMutableRawPointer) {
        let user = UInt(bitPattern: pointer)
        let header = UnsafeMutableRawPointer(bitPattern: user - 8)!
        let sizeClass = Int(header.load(as: UInt32.self))
        let block = user - UInt(header.load(fromByteOffset: 4, as: UInt32.self))
        UnsafeMutableRawPointer(bitPattern: block)!.storeBytes(of: head(sizeClass), as: UInt.self)
        setHead(sizeClass, block)
    }
}

// posix_memalign and free are names Swift reserves for its runtime: Allocator.c forwards them here.

@_cdecl("receipt_heap_allocate")
public func receiptHeapAllocate(_ alignment: Int, _ size: Int) -> UnsafeMutableRawPointer? {
    Heap.allocate(UInt(size), alignment: UInt(alignment))
}

@_cdecl("receipt_heap_free")
public func receiptHeapFree(_ pointer: UnsafeMutableRawPointer?) {
    if let pointer { Heap.free(pointer) }
}

@_cdecl("memcmp")
public func memcmp(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Int32 {
    var index = 0
    while index < count {
        let x = a.load(fromByteOffset: index, as: UInt8.self), y = b.load(fromByteOffset: index, as: UInt8.self)
        if x != y { return x < y ? -1 : 1 }
        index += 1
    }
    return 0
}

@_cdecl("memcpy")
public func memcpy(_ destination: UnsafeMutableRawPointer, _ source: UnsafeRawPointer, _ count: Int) -> UnsafeMutableRawPointer {
    memmove(destination, source, count)
}

@_cdecl("memmove")
public func memmove(_ destination: UnsafeMutableRawPointer, _ source: UnsafeRawPointer, _ count: Int) -> UnsafeMutableRawPointer {
    let to = destination.assumingMemoryBound(to: UInt8.self)
    let from = source.assumingMemoryBound(to: UInt8.self)
    if UInt(bitPattern: to) < UInt(bitPattern: from) {
        var index = 0
        while index < count {
            to[index] = from[index]
            index += 1
        }
    } else {
        var index = count
        while index > 0 {
            index -= 1
            to[index] = from[index]
        }
    }
    return destination
}

@_cdecl("memset")
public func memset(_ destination: UnsafeMutableRawPointer, _ value: Int32, _ count: Int) -> UnsafeMutableRawPointer {
    let to = destination.assumingMemoryBound(to: UInt8.self)
    var index = 0
    while index < count {
        to[index] = UInt8(truncatingIfNeeded: value)
        index += 1
    }
    return destination
}

/// Random bytes for Hasher's seed: xorshift64* from the seed the host gives (`receipt_seed`,
/// which Wasm/receipt.mjs fills from crypto.getRandomValues), so that hash tables of
/// attacker-chosen keys cannot be flooded by a fixed seed.
enum RandomSeed {
    nonisolated(unsafe) static var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    static func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}

@_cdecl("receipt_seed")
public func receiptSeed(_ low: UInt32, _ high: UInt32) {
    let seed = UInt64(high) << 32 | UInt64(low)
    RandomSeed.state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
}

@_cdecl("arc4random_buf")
public func arc4random_buf(_ buffer: UnsafeMutableRawPointer, _ count: Int) {
    var index = 0
    while index < count {
        let word = RandomSeed.next()
        var byte = 0
        while byte < 8, index < count {
            buffer.storeBytes(of: UInt8(truncatingIfNeeded: word >> UInt64(8 * byte)), toByteOffset: index, as: UInt8.self)
            byte += 1
            index += 1
        }
    }
}
