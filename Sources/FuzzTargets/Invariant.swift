// The fuzz harnesses' logic (DESIGN §9), shared by the libFuzzer executables in `Fuzz/` and by
// `Tests/FuzzRegressionTests`, which replays the seed corpora and every input that ever failed.
//
// Each harness takes arbitrary bytes, runs one layer of the library over them and checks
// invariants, not only "did not crash". A broken invariant is thrown as `InvariantViolation`: the
// fuzz executables turn it into a crash (so libFuzzer saves the input), the tests into a failure.

import Foundation

/// An invariant a harness checks did not hold for some input.
public struct InvariantViolation: Error, CustomStringConvertible, Sendable {
    /// Which harness found it.
    public let harness: String
    /// What did not hold.
    public let message: String

    public init(harness: String, _ message: String) {
        self.harness = harness
        self.message = message
    }

    public var description: String { "\(harness): invariant violated: \(message)" }
}

/// The harnesses, by the names `Fuzz/run --list` prints.
public enum Harness: String, CaseIterable, Sendable {
    /// The DER/BER reader under both rule sets, with the writer round trip.
    case der
    /// PKCS#7 SignedData decoding (and verification under a permissive policy).
    case pkcs7
    /// X.509 certificate parsing.
    case certificate
    /// Full App Store receipt decoding and validation under every policy.
    case receipt
    /// StoreKit 2 signed data: compact JWS parsing, verification under every policy, typed payloads.
    case jws
    /// iOS 6 transaction receipts: the dictionary parser, the signature blob, decoding and verification.
    case legacy
    /// OCSP responses: parsing, and verification about the seeds' certificates.
    case ocsp

    /// Runs the harness over `bytes`; throws when an invariant does not hold. The library itself
    /// must not trap on any input: a trap is a crash of the caller, as in production.
    public func check(_ bytes: UnsafeRawBufferPointer) throws(InvariantViolation) {
        switch self {
        case .der: try DERHarness.check(bytes)
        case .pkcs7: try PKCS7Harness.check(bytes)
        case .certificate: try CertificateHarness.check(bytes)
        case .receipt: try ReceiptHarness.check(bytes)
        case .jws: try JWSHarness.check(bytes)
        case .legacy: try LegacyHarness.check(bytes)
        case .ocsp: try OCSPHarness.check(bytes)
        }
    }

    /// Runs the harness over `bytes`.
    public func check(_ bytes: [UInt8]) throws(InvariantViolation) {
        let result: Result<Void, InvariantViolation> = bytes.withUnsafeBytes { raw in
            Result { () throws(InvariantViolation) in try check(raw) }
        }
        try result.get()
    }

    /// The libFuzzer entry point's body: runs the harness and turns a violation into a crash
    /// whose message names the invariant (`fatalError` prints it in optimised builds too).
    public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        do {
            try check(UnsafeRawBufferPointer(start: size == 0 ? nil : data, count: size))
        } catch {
            fatalError(error.description)
        }
    }
}

/// Checks for one harness: `try expect(condition, "what should hold")`.
struct Checker {
    let harness: String

    @inline(__always)
    func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(InvariantViolation) {
        if !condition { throw InvariantViolation(harness: harness, message()) }
    }

    func fail(_ message: String) -> InvariantViolation { InvariantViolation(harness: harness, message) }

    /// `inner` lies within `outer`.
    func expect(_ inner: Range<Int>, within outer: Range<Int>, _ what: @autoclosure () -> String) throws(InvariantViolation) {
        try expect(
            inner.lowerBound >= outer.lowerBound && inner.upperBound <= outer.upperBound,
            "\(what()) \(inner) not within \(outer)")
    }

    /// An error offset lies within `bounds` (both ends included: "at the end of the input" is a
    /// position too, where truncation is reported).
    func expect(offset: Int, within bounds: Range<Int>, _ what: @autoclosure () -> String) throws(InvariantViolation) {
        try expect(
            offset >= bounds.lowerBound && offset <= bounds.upperBound,
            "\(what()): error offset \(offset) outside \(bounds.lowerBound)...\(bounds.upperBound)")
    }
}

/// Checks a run may leave out, named in the environment variable `RECEIPT_FUZZ_SKIP`
/// (comma-separated), so that fuzzing can look past a finding already reported and awaiting a
/// fix. The regression tests never skip anything.
public enum SkippableCheck: String, CaseIterable, Sendable {
    /// Certificates and signed attributes are DER throughout, nested elements included.
    case strictDER = "strict-der"

    /// Whether this run leaves the check out.
    public var isSkipped: Bool { Self.skipped.contains(self) }

    static let skipped: Set<SkippableCheck> = {
        let names = ProcessInfo.processInfo.environment["RECEIPT_FUZZ_SKIP"]?.split(separator: ",") ?? []
        return Set(names.compactMap { SkippableCheck(rawValue: $0.trimmingCharacters(in: .whitespaces)) })
    }()
}
