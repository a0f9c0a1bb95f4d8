import VerifyCommandCore

// The module's C ABI, for Wasm/receipt.mjs: `receipt_allocate`/`receipt_release` for buffers the
// host fills or reads, and `receipt_verify`, which runs `receipt verify` (VerifyCommandCore)
// over a request buffer and returns a response buffer. All integers are little-endian u32.
//
// Request: argument count, then each argument (length, UTF-8 bytes); file count, then each file
// (name length, name, kind: 0 bytes or 1 unreadable, length, the bytes or the reason's UTF-8).
// Response: exit status, standard output (length, UTF-8), standard error (length, UTF-8).

/// `count` bytes the host writes a request into (released with `receipt_release`).
@_cdecl("receipt_allocate")
public func receiptAllocate(_ count: Int32) -> UnsafeMutableRawPointer? {
    Heap.allocate(UInt(max(count, 1)), alignment: 16)
}

/// Releases a buffer from `receipt_allocate` or `receipt_verify`.
@_cdecl("receipt_release")
public func receiptRelease(_ pointer: UnsafeMutableRawPointer?) {
    if let pointer { Heap.free(pointer) }
}

/// Runs `receipt verify` on the request at `request` (`count` bytes) with `now` (milliseconds
/// since 1970) as the clock of `--at now`; returns the response, or null when the request is
/// malformed or memory ran out.
@_cdecl("receipt_verify")
public func receiptVerify(_ request: UnsafeRawPointer, _ count: Int32, _ now: Int64) -> UnsafeMutableRawPointer? {
    var reader = RequestReader(UnsafeRawBufferPointer(start: request, count: Int(count)))
    guard let arguments = reader.strings(), let files = reader.files() else { return nil }
    let result = VerifyCommand.run(arguments, nowMilliseconds: now) { path in
        files.first { $0.name == path }?.contents ?? .unreadable(reason: "no such file")
    }
    return Response.encode(result)
}
