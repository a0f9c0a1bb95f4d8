import AppReceipt
import AppStoreJWS
import Foundation
import VerifyCommandCore

/// Reads a FILE operand: a path or `-` (standard input), holding binary DER/BER, base64 text or PEM.
enum Input {
    static func read(_ path: String) throws -> [UInt8] {
        ReceiptInput.decode(try readRaw(path))
    }

    /// The bytes of FILE as they are.
    static func readRaw(_ path: String) throws -> [UInt8] {
        switch contents(path) {
        case .bytes(let bytes): return bytes
        case .unreadable(let reason): throw ToolFailure.usage("cannot read \(path): \(reason)")
        }
    }

    /// The bytes of FILE (`-`: standard input), or why they could not be read.
    static func contents(_ path: String) -> FileContents {
        if path == "-" {
            return .bytes([UInt8](FileHandle.standardInput.readDataToEndOfFile()))
        }
        guard let data = FileManager.default.contents(atPath: path) else { return .unreadable(reason: unreadableReason(path)) }
        return .bytes([UInt8](data))
    }

    /// Why `path` could not be read, in words.
    static func unreadableReason(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" }
        if isDirectory.boolValue { return "it is a directory" }
        if !FileManager.default.isReadableFile(atPath: path) { return "permission denied" }
        return "the read failed"
    }

    /// A compact JWS: text starting `eyJ` (base64url of `{"`), whitespace around it ignored.
    /// Returns the token without that whitespace, or `nil` for anything else.
    static func compactJWS(_ raw: [UInt8]) -> [UInt8]? {
        CompactJWS.token(in: raw)
    }
}
