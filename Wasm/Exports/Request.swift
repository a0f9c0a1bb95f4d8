import VerifyCommandCore

/// A file the host read for the command: its name as the arguments give it, and its contents.
struct HostFile {
    let name: String
    let contents: FileContents
}

/// Reads a request buffer (see Exports.swift); every read returns nil past the end.
struct RequestReader {
    private let buffer: UnsafeRawBufferPointer
    private var offset = 0

    init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    mutating func u32() -> Int? {
        guard buffer.count - offset >= 4 else { return nil }
        var value = 0
        for index in 0 ..< 4 { value |= Int(buffer[offset + index]) << (8 * index) }
        offset += 4
        return value
    }

    mutating func bytes() -> [UInt8]? {
        guard let count = u32(), buffer.count - offset >= count else { return nil }
        let bytes = Array(buffer[offset ..< offset + count])
        offset += count
        return bytes
    }

    mutating func string() -> String? {
        bytes().map { String(decoding: $0, as: UTF8.self) }
    }

    mutating func strings() -> [String]? {
        guard let count = u32() else { return nil }
        var strings: [String] = []
        for _ in 0 ..< count {
            guard let string = string() else { return nil }
            strings.append(string)
        }
        return strings
    }

    mutating func files() -> [HostFile]? {
        guard let count = u32() else { return nil }
        var files: [HostFile] = []
        for _ in 0 ..< count {
            guard let name = string(), let kind = u32(), let data = bytes() else { return nil }
            let contents: FileContents = kind == 0 ? .bytes(data) : .unreadable(reason: String(decoding: data, as: UTF8.self))
            files.append(HostFile(name: name, contents: contents))
        }
        return files
    }
}

/// Writes a command's result as a response buffer (see Exports.swift).
enum Response {
    static func encode(_ result: CommandResult) -> UnsafeMutableRawPointer? {
        var bytes: [UInt8] = []
        append(UInt32(bitPattern: result.status.rawValue), to: &bytes)
        for text in [result.standardOutput, result.standardError] {
            let utf8 = Array(text.utf8)
            append(UInt32(utf8.count), to: &bytes)
            bytes += utf8
        }
        guard let pointer = Heap.allocate(UInt(bytes.count), alignment: 16) else { return nil }
        bytes.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return pointer
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        for index in 0 ..< 4 { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(8 * index))) }
    }
}
