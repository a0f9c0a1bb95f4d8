import AppReceipt
import AppStoreJWS
import Foundation

/// Reads a FILE operand: a path or `-` (standard input), holding binary DER/BER, base64 text or PEM.
enum Input {
    static func read(_ path: String) throws -> [UInt8] {
        ReceiptInput.decode(try readRaw(path))
    }

    /// The bytes of FILE as they are.
    static func readRaw(_ path: String) throws -> [UInt8] {
        if path == "-" {
            return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ToolFailure.usage("cannot read \(path): \(unreadableReason(path))")
        }
        return [UInt8](data)
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
