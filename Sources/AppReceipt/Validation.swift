import CryptoPrimitives
#if canImport(Foundation)
    import Foundation
#endif
import PKCS7
import X509Certificates

/// The instant at which certificate validity is judged.
public enum ValidationTime: Sendable, Hashable {
    /// The receipt's creation date (attribute 12), trusted once the signature has verified.
    /// Apple's signing certificates expire every two years while receipts stay valid, so this is
    /// the default.
    case receiptCreation
    /// A given instant, in milliseconds since 1970 (what a Foundation-free program, which
    /// knows the current time only as a number, gives).
    case millisecondsSince1970(Int64)
    #if canImport(Foundation)
        /// The current time.
        case now
        /// A given instant.
        case date(Date)
    #endif
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
    public func validate(
        policy: TrustPolicy = .appStore, bundleIdentifier expectedBundle: String? = nil,
        appVersion expectedVersion: String? = nil, deviceIdentifier: [UInt8]? = nil,
        at time: ValidationTime = .receiptCreation,
        linkStore: AnyVerifiedLinkStore? = nil
    ) throws(ReceiptValidationError) -> VerifiedSignature {
        let verified: VerifiedSignature
        do throws(VerificationError) {
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
        case .receiptCreation: return AppleDateFormat.floorSeconds(creationDateMilliseconds)
        case .millisecondsSince1970(let milliseconds): return AppleDateFormat.floorSeconds(milliseconds)
        #if canImport(Foundation)
            case .now: return Self.floorSeconds(Date())
            case .date(let date): return Self.floorSeconds(date)
        #endif
        }
    }
}
