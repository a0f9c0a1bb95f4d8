import AppReceipt
import Foundation

/// Reads a FILE operand: a path or `-` (standard input), holding binary DER/BER, base64 text or PEM.
enum Input {
    static func read(_ path: String) throws -> [UInt8] {
        let raw: [UInt8]
        if path == "-" {
            raw = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        } else {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ToolFailure.usage("cannot read \(path)")
            }
            raw = [UInt8](data)
        }
        return ReceiptInput.decode(raw)
    }
}
