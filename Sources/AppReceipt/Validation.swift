import CryptoPrimitives
import DER
import Foundation
import PKCS7

/// The instant at which certificate validity is judged.
public enum ValidationTime: Sendable, Hashable {
    /// The receipt's creation date (attribute 12), trusted once the signature has verified.
    /// Apple's signing certificates expire every two years while receipts stay valid, so this is
    /// the default.
    case receiptCreation
    /// The current time.
    case now
    /// A given instant.
    case date(Date)
}

/// Why a decodable receipt is not valid, one case per step of Apple's validation order.
public enum ReceiptValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Step 2: the signature or certificate chain fails under the chosen policy.
    case untrusted(VerificationError)
    /// Step 3: the bundle identifier is not the expected one.
    case bundleIdentifierMismatch(expected: String, found: String)
    /// Step 4: the app version is not the expected one.
    case appVersionMismatch(expected: String, found: String)
    /// Step 5: SHA-1(device identifier ‖ opaque value ‖ bundle id) is not attribute 5.
    case deviceHashMismatch

    public var description: String {
        switch self {
        case .untrusted(let error): return error.description
        case .bundleIdentifierMismatch(let expected, let found): return "bundle identifier \(found) is not \(expected)"
        case .appVersionMismatch(let expected, let found): return "app version \(found) is not \(expected)"
        case .deviceHashMismatch: return "device hash does not match"
        }
    }
}

extension AppReceipt {
    /// Validates in Apple's order: (1, done by decoding) present and parsable; (2) signature and
    /// chain under `policy` at `time`; (3) bundle identifier; (4) app version, when given;
    /// (5) device hash, when a device identifier is given. Returns the verified signature.
    @discardableResult
    public func validate(policy: TrustPolicy = .appStore, bundleIdentifier expectedBundle: String? = nil,
                         appVersion expectedVersion: String? = nil, deviceIdentifier: [UInt8]? = nil,
                         at time: ValidationTime = .receiptCreation,
                         linkStore: (any VerifiedLinkStore)? = nil) throws(ReceiptValidationError) -> VerifiedSignature {
        let verified: VerifiedSignature
        do {
            verified = try SignedDataVerifier(policy: policy, linkStore: linkStore).verify(signedData, at: seconds(for: time))
        } catch {
            throw .untrusted(error)
        }
        if let expectedBundle, expectedBundle != bundleIdentifier {
            throw .bundleIdentifierMismatch(expected: expectedBundle, found: bundleIdentifier)
        }
        if let expectedVersion, expectedVersion != appVersion {
            throw .appVersionMismatch(expected: expectedVersion, found: appVersion)
        }
        if let deviceIdentifier, !matchesDevice(deviceIdentifier) {
            throw .deviceHashMismatch
        }
        return verified
    }

    /// Whether SHA-1 over the device identifier's bytes, the opaque value and the bundle id
    /// value (its whole UTF8String encoding, as carried) equals attribute 5. The identifier is
    /// the 16 bytes of `identifierForVendor` on iOS, the primary MAC address on macOS.
    public func matchesDevice(_ deviceIdentifier: [UInt8]) -> Bool {
        var hasher = SHA1()
        hasher.update(deviceIdentifier)
        payloadStorage.withUnsafeBytes { raw in
            hasher.update(UnsafeRawBufferPointer(rebasing: raw[opaqueValueRange]))
            hasher.update(UnsafeRawBufferPointer(rebasing: raw[bundleIdentifierValueRange]))
        }
        let digest = hasher.finalize()
        return payloadStorage.withUnsafeBytes { raw in
            digest.withUnsafeBytes { constantTimeEquals($0, UnsafeRawBufferPointer(rebasing: raw[sha1HashRange])) }
        }
    }

    /// Seconds since 1970 for a validation time (creation date rounded down to the second).
    func seconds(for time: ValidationTime) -> Int64 {
        switch time {
        case .receiptCreation: return Self.floorSeconds(creationDate)
        case .now: return Self.floorSeconds(Date())
        case .date(let date): return Self.floorSeconds(date)
        }
    }

    static func floorSeconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }
}

extension AppReceipt {
    /// Decodes a receipt given as binary DER/BER or as base64 text (whitespace ignored), the way
    /// apps and servers usually hold it.
    public init(binaryOrBase64 bytes: [UInt8]) throws(ReceiptError) {
        try self.init(ReceiptInput.decode(bytes))
    }

    /// Decodes `Data` (binary or base64 text).
    public init(data: Data) throws(ReceiptError) {
        try self.init(binaryOrBase64: [UInt8](data))
    }
}

/// Input forms a receipt, certificate or any DER file may arrive in.
public enum ReceiptInput: Sendable {
    /// Binary bytes as they are when they hold exactly one BER element; otherwise base64 text
    /// (A–Z a–z 0–9 + / = and whitespace, with any PEM armour `-----BEGIN …-----` stripped)
    /// decoded; anything else as it is.
    public static func decode(_ raw: [UInt8]) -> [UInt8] {
        if isOneElement(raw) { return raw }
        var text = raw[...]
        if let armored = pemBody(raw) { text = armored[...] }
        var alphabet: [UInt8] = []
        alphabet.reserveCapacity(text.count)
        for byte in text {
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09: continue
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2B, 0x2F, 0x3D: alphabet.append(byte)
            default: return raw
            }
        }
        guard !alphabet.isEmpty, let data = Data(base64Encoded: Data(alphabet)) else { return raw }
        return [UInt8](data)
    }

    /// Whether `raw` is one complete BER element and nothing else (base64 text practically never
    /// is: its first octet would have to announce exactly the text's length).
    private static func isOneElement(_ raw: [UInt8]) -> Bool {
        raw.withUnsafeBytes { bytes in
            var reader = ASN1Reader(bytes, rules: .ber)
            return (try? reader.readElement()) != nil && reader.isAtEnd
        }
    }

    /// The text between the first `-----BEGIN` line and the following `-----END`, if any.
    private static func pemBody(_ raw: [UInt8]) -> [UInt8]? {
        guard let text = String(validating: raw, as: UTF8.self),
              let begin = text.range(of: "-----BEGIN "),
              let headerEnd = text[begin.upperBound...].range(of: "-----"),
              let end = text[headerEnd.upperBound...].range(of: "-----END ")
        else { return nil }
        return Array(text[headerEnd.upperBound ..< end.lowerBound].utf8)
    }
}
