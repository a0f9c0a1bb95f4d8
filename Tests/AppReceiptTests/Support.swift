import AppReceipt
import CryptoPrimitives
import Foundation
import PKCS7
import X509Certificates
import ReceiptTestSupport
import Testing
import TestHelpers

// Helpers shared by the AppReceipt tests: an encoder written here (independent of the library's
// DER writer) for payloads the builder in ReceiptTestSupport cannot express, one synthetic chain
// signed once, error helpers, and `date(1)` as an oracle for civil times.

/// A minimal DER encoder (X.690 §8.1, §10.1): definite minimal lengths, minimal INTEGERs.
enum TLV {
    static func encode(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var out = [tag]
        if content.count < 0x80 {
            out.append(UInt8(content.count))
        } else {
            var length: [UInt8] = []
            var remaining = content.count
            while remaining > 0 {
                length.insert(UInt8(remaining & 0xFF), at: 0)
                remaining >>= 8
            }
            out.append(0x80 | UInt8(length.count))
            out += length
        }
        return out + content
    }

    /// Two's complement, minimal (X.690 §8.3.2).
    static func integer(_ value: Int64) -> [UInt8] {
        var bytes = withUnsafeBytes(of: value.bigEndian) { Array($0) }
        while bytes.count > 1, (bytes[0] == 0x00 && bytes[1] & 0x80 == 0) || (bytes[0] == 0xFF && bytes[1] & 0x80 != 0) {
            bytes.removeFirst()
        }
        return encode(0x02, bytes)
    }

    static func utf8(_ text: String) -> [UInt8] { encode(0x0C, Array(text.utf8)) }
    static func ia5(_ text: String) -> [UInt8] { encode(0x16, Array(text.utf8)) }
    static func octets(_ bytes: [UInt8]) -> [UInt8] { encode(0x04, bytes) }
    static func sequence(_ parts: [[UInt8]]) -> [UInt8] { encode(0x30, parts.flatMap { $0 }) }

    /// SET OF: sorted by encoding (X.690 §11.6) unless `sorted` is false (Xcode's order).
    static func set(_ elements: [[UInt8]], sorted: Bool = true) -> [UInt8] {
        let ordered = sorted ? elements.sorted { $0.lexicographicallyPrecedes($1) } : elements
        return encode(0x31, ordered.flatMap { $0 })
    }
}

/// One `ReceiptAttribute` as the test writes it.
struct Attr {
    var type: Int
    var version: Int = 1
    var value: [UInt8]

    init(_ type: Int, _ value: [UInt8], version: Int = 1) {
        self.type = type
        self.value = value
        self.version = version
    }

    var encoded: [UInt8] { TLV.sequence([TLV.integer(Int64(type)), TLV.integer(Int64(version)), TLV.octets(value)]) }
}

/// A payload as a list of attributes that tests edit freely (remove, replace, duplicate).
struct Payload {
    var attributes: [Attr]
    var sorted = true

    var encoded: [UInt8] { TLV.set(attributes.map(\.encoded), sorted: sorted) }

    static let deviceIdentifier: [UInt8] = Array(0x10 ..< 0x20)
    static let opaqueValue: [UInt8] = [0xA1, 0xB2, 0xC3, 0xD4, 0x01, 0x02, 0x03, 0x04]
    static let bundleIdentifier = "com.example.payload"

    /// The app-level attributes every receipt needs, with attribute 5 computed for
    /// `deviceIdentifier` (SHA-1 over GUID ‖ opaque value ‖ the bundle id's whole UTF8String).
    static func app(
        bundleIdentifier: String = bundleIdentifier, appVersion: String = "7.1",
        creationDate: String = "2024-02-23T17:27:16Z", purchases: [[Attr]] = []
    ) -> Payload {
        let bundle = TLV.utf8(bundleIdentifier)
        let hash = SHA1.hash(deviceIdentifier + opaqueValue + bundle).bytes
        var attributes = [
            Attr(0, TLV.utf8("Production")), Attr(1, TLV.integer(987_654_321)), Attr(2, bundle),
            Attr(3, TLV.utf8(appVersion)), Attr(4, opaqueValue), Attr(5, hash),
            Attr(12, TLV.ia5(creationDate)), Attr(18, TLV.ia5("2016-08-16T15:15:43Z")), Attr(19, TLV.utf8("1.0")),
        ]
        attributes += purchases.map(purchase)
        return Payload(attributes: attributes)
    }

    /// A type-17 attribute holding `attributes` as an in-app SET.
    static func purchase(_ attributes: [Attr]) -> Attr {
        Attr(17, TLV.set(attributes.map(\.encoded)))
    }

    /// The minimal in-app purchase: quantity, product, transaction, purchase date.
    static func minimalPurchase(
        product: String = "com.example.product", transaction: String = "1000",
        date: String = "2024-01-01T00:00:00Z"
    ) -> [Attr] {
        [
            Attr(1701, TLV.integer(1)), Attr(1702, TLV.utf8(product)), Attr(1703, TLV.utf8(transaction)),
            Attr(1704, TLV.ia5(date)),
        ]
    }

    mutating func remove(_ type: Int) { attributes.removeAll { $0.type == type } }

    mutating func replace(_ type: Int, _ value: [UInt8]) {
        remove(type)
        attributes.append(Attr(type, value))
    }
}

/// The synthetic chain, its certificates signed once, and the policy that trusts its root.
enum Synthetic {
    static let chain = TestChain()
    /// Leaf, intermediate, root (three RSA signatures, made once).
    static let certificates: [[UInt8]] = chain.certificates
    static let rootCertificate: [UInt8] = certificates[2]
    static let policy: TrustPolicy = {
        do {
            return TrustPolicy.appStore(anchors: [try TrustAnchor(derEncoded: rootCertificate)])
        } catch {
            preconditionFailure("synthetic root does not parse: \(error)")
        }
    }()

    /// A receipt around `payload`, signed by the synthetic leaf (one RSA signature).
    static func sign(_ payload: [UInt8], berSegmentSize: Int? = nil) -> [UInt8] {
        chain.signedData(payload, certificates: certificates, berSegmentSize: berSegmentSize).encoded()
    }

    static func sign(_ receipt: TestReceipt) -> [UInt8] { sign(receipt.payload()) }
    static func sign(_ payload: Payload) -> [UInt8] { sign(payload.encoded) }
}

/// The error decoding `bytes` throws, or `nil` when it decodes.
func decodingError(_ bytes: [UInt8]) -> ReceiptError? {
    do {
        _ = try AppReceipt(bytes)
        return nil
    } catch {
        return error
    }
}

/// The error `validate` throws, or `nil` when the receipt is valid.
func validationError(
    _ receipt: AppReceipt, policy: TrustPolicy = Synthetic.policy, bundleIdentifier: String? = nil,
    appVersion: String? = nil, deviceIdentifier: [UInt8]? = nil,
    at time: ValidationTime = .receiptCreation
) -> ReceiptValidationError? {
    do {
        try receipt.validate(
            policy: policy, bundleIdentifier: bundleIdentifier, appVersion: appVersion,
            deviceIdentifier: deviceIdentifier, at: time)
        return nil
    } catch {
        return error
    }
}

/// Offset of the first occurrence of `needle` in `haystack` at or after `start`.
func offset(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
    for index in start ... haystack.count - needle.count where haystack[index] == needle[0] {
        if haystack[index ..< index + needle.count].elementsEqual(needle) { return index }
    }
    return nil
}

/// The instant `milliseconds` after 1970-01-01T00:00:00Z.
func instant(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

/// Parses a JSON object.
func jsonObject(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(object as? [String: Any], sourceLocation: sourceLocation)
}

/// Civil times from the system's tz database through `date(1)` (GNU `date -f`), one process for
/// many instants; Foundation's formatter only when `date` is missing.
enum DateOracle {
    /// `yyyy-MM-dd HH:mm:ss` of each instant (whole seconds since 1970) in `zone`.
    static func civil(_ seconds: [Int64], zone: String) throws -> [String] {
        try format(seconds, zone: zone, "+%Y-%m-%d %H:%M:%S", fallback: "yyyy-MM-dd HH:mm:ss")
    }

    /// The UTC offset in seconds (`date +%z`) at each instant in `zone`.
    static func utcOffsets(_ seconds: [Int64], zone: String) throws -> [Int] {
        try format(seconds, zone: zone, "+%z", fallback: "xx").map { text in
            guard text.count == 5, let hours = Int(text.dropFirst().prefix(2)), let minutes = Int(text.suffix(2)) else {
                throw OracleError.failed("date +%z printed '\(text)'")
            }
            return (text.hasPrefix("-") ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
    }

    /// `date -f FILE FORMAT` with one `@SECONDS` line per instant.
    static func format(_ seconds: [Int64], zone: String, _ format: String, fallback: String) throws -> [String] {
        guard !seconds.isEmpty else { return [] }
        guard let tool = ["/usr/bin/date", "/bin/date"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: zone)
            formatter.dateFormat = fallback
            return seconds.map { formatter.string(from: Date(timeIntervalSince1970: Double($0))) }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("date-oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in")
        let output = directory.appendingPathComponent("out")
        try Data(seconds.map { "@\($0)\n" }.joined().utf8).write(to: input)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-f", input.path, format]
        process.environment = ["TZ": zone, "LC_ALL": "C"]
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let lines = String(decoding: try Data(contentsOf: output), as: UTF8.self).split(separator: "\n").map(String.init)
        guard process.terminationStatus == 0, lines.count == seconds.count else {
            throw OracleError.failed("date exited \(process.terminationStatus) with \(lines.count) lines for \(seconds.count)")
        }
        return lines
    }

    enum OracleError: Error { case failed(String) }

    /// Floor of a millisecond instant to whole seconds (toward −∞).
    static func floorSeconds(_ milliseconds: Int64) -> Int64 {
        milliseconds >= 0 ? milliseconds / 1000 : -((-milliseconds + 999) / 1000)
    }
}
