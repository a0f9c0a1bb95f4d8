import CryptoPrimitives
import PKCS7
import ReceiptTestSupport

/// The three columns of every comparison.
public enum Peer: Int, CaseIterable, Sendable, Comparable {
    /// This toolkit.
    case ours
    /// The system's libcrypto (OpenSSL 3).
    case openssl
    /// swift-asn1 / swift-certificates / swift-crypto, whichever does the job.
    case swift

    /// The column's name in RESULT lines (`<column>_us=`).
    public var column: String {
        switch self {
        case .ours: "ours"
        case .openssl: "openssl"
        case .swift: "swift_asn1"
        }
    }

    public var title: String {
        switch self {
        case .ours: "ours"
        case .openssl: "openssl"
        case .swift: "swift-asn1"
        }
    }

    public static func < (a: Peer, b: Peer) -> Bool { a.rawValue < b.rawValue }
}

/// One timed operation; returns a value every run must reproduce (purchases found, digest prefix,
/// 1 for a valid signature), so that a peer that fails or decodes differently aborts the run.
public enum Body: Sendable {
    case sync(@Sendable () throws -> Int)
    case async(@Sendable () async throws -> Int)

    @inline(__always)
    public func callAsFunction() async throws -> Int {
        switch self {
        case .sync(let body): try body()
        case .async(let body): try await body()
        }
    }
}

public struct Implementation: Sendable {
    public let peer: Peer
    public let body: Body
}

/// A performance target: the largest allowed time ratio ours ÷ peer, per peer (DESIGN §8).
public struct Target: Sendable {
    public let maxRatio: [Peer: Double]
    public let text: String

    static let decode = Target(maxRatio: [.openssl: 0.1, .swift: 0.2], text: "≤0.1× openssl, ≤0.2× swift-asn1")
    static let verify = Target(maxRatio: [.openssl: 0.33], text: "≤0.33× openssl")
    static let verifyWarm = Target(maxRatio: [.openssl: 0.1], text: "≤0.1× openssl")
    static let sha = Target(maxRatio: [.openssl: 1.25], text: "≥0.8× openssl throughput")
    static let rsa = Target(maxRatio: [.openssl: 1.5], text: "≤1.5× openssl")
    /// Hostile input: refused, and bounded in absolute time (the server's 20 ms per request).
    static let hostile = Target(maxRatio: [:], text: "refused")
}

public struct BenchmarkCase: Sendable {
    /// `decode/production`, `sha256/1MiB`, … (DESIGN §8 names).
    public let name: String
    /// What every implementation's body must return.
    public let expected: Int
    /// Input size, for throughput.
    public let byteCount: Int
    public let implementations: [Implementation]
    public let target: Target

    public func implementation(_ peer: Peer) -> Implementation? { implementations.first { $0.peer == peer } }
}

/// Every case of DESIGN §8, built once (fixtures read, synthetic receipts signed, stores made).
public enum Cases {
    /// The cases whose names pass `include`, in table order; only those are set up.
    public static func all(where include: (String) -> Bool = { _ in true }) throws -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        func add(_ name: String, _ make: () throws -> BenchmarkCase) rethrows {
            if include(name) { cases.append(try make()) }
        }
        let fixtures = Fixtures.receipts
        for sample in fixtures { add("decode/\(sample.name)") { decode(sample) } }
        for sample in fixtures { try add("verify/\(sample.name)") { try verify(sample, warm: false) } }
        for sample in fixtures { try add("verify-warm/\(sample.name)") { try verify(sample, warm: true) } }
        for count in Fixtures.syntheticCounts { add("decode/synthetic-\(count)") { decode(Fixtures.synthetic(count)) } }
        try add("verify/synthetic-100") { try verify(Fixtures.synthetic(100), warm: false) }
        for (size, label) in [(64, "64B"), (1024, "1KiB"), (1 << 20, "1MiB")] {
            add("sha256/\(label)") { sha(size, label, sha256: true) }
            add("sha1/\(label)") { sha(size, label, sha256: false) }
        }
        try add("rsa2048/verify") { try rsa2048() }
        try add("ecdsa-p256/verify") { try ECDSACases.verify(.p256) }
        try add("ecdsa-p256/verify-table") { try ECDSACases.verify(.p256, table: true) }
        try add("ecdsa-p384/verify") { try ECDSACases.verify(.p384) }
        try add("ecdsa-p256/sign") { try ECDSASignCases.sign() }
        try add("jws/verify") { try JWSCases.verify(warm: false) }
        try add("jws/verify-warm") { try JWSCases.verify(warm: true) }
        add("hostile/junk-rsa8192-4-signers") { HostileCases.junk(signerInfos: 4) }
        add("hostile/junk-rsa8192-1-signers") { HostileCases.junk(signerInfos: 1) }
        add("hostile/self-made-rsa4096-chain") { HostileCases.selfMadeChain() }
        return cases
    }

    static func decode(_ sample: ReceiptSample) -> BenchmarkCase {
        let bytes = sample.bytes
        return BenchmarkCase(
            name: "decode/\(sample.name)", expected: sample.inAppCount, byteCount: bytes.count,
            implementations: [
                Implementation(peer: .ours, body: .sync { try Ours.decode(bytes) }),
                Implementation(peer: .openssl, body: .sync { try OpenSSL.decode(bytes) }),
                Implementation(peer: .swift, body: .sync { try SwiftPeers.decode(bytes) }),
            ], target: .decode)
    }

    /// Cold: no link store. Warm: ours with a shared `VerifiedLinkCache` warmed once; the peers
    /// remember nothing, so their warm bodies are their cold ones.
    static func verify(_ sample: ReceiptSample, warm: Bool) throws -> BenchmarkCase {
        let bytes = sample.bytes
        let policy = Ours.policy(for: sample)
        let cache = warm ? Ours.warmedCache(sample) : nil
        let store = OpenSSL.TrustStore(anchorDER: sample.anchorDER)
        let trust = try SwiftPeers.Trust(anchorDER: sample.anchorDER, claimsExtendedKeyUsage: sample.anchor == .storeKit)
        return BenchmarkCase(
            name: "\(warm ? "verify-warm" : "verify")/\(sample.name)", expected: sample.inAppCount,
            byteCount: bytes.count,
            implementations: [
                Implementation(peer: .ours, body: .sync { try Ours.verify(bytes, policy: policy, linkStore: cache) }),
                Implementation(peer: .openssl, body: .sync { try OpenSSL.verify(bytes, store: store) }),
                Implementation(peer: .swift, body: .async { try await SwiftPeers.verify(bytes, trust: trust) }),
            ], target: warm ? .verifyWarm : .verify)
    }

    static func sha(_ size: Int, _ label: String, sha256: Bool) -> BenchmarkCase {
        let bytes = (0 ..< size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let expected = bytes.withUnsafeBytes { sha256 ? Ours.sha256($0) : Ours.sha1($0) }
        return BenchmarkCase(
            name: "\(sha256 ? "sha256" : "sha1")/\(label)", expected: expected, byteCount: size,
            implementations: [
                Implementation(peer: .ours, body: .sync { bytes.withUnsafeBytes { sha256 ? Ours.sha256($0) : Ours.sha1($0) } }),
                Implementation(peer: .openssl, body: .sync { bytes.withUnsafeBytes { sha256 ? OpenSSL.sha256($0) : OpenSSL.sha1($0) } }),
                Implementation(peer: .swift, body: .sync { bytes.withUnsafeBytes { sha256 ? SwiftPeers.sha256($0) : SwiftPeers.sha1($0) } }),
            ], target: .sha)
    }

    /// A 2048-bit key of the test chain, a PKCS#1 v1.5 signature over a SHA-256 digest, verified
    /// by each peer with its key parsed once.
    static func rsa2048() throws -> BenchmarkCase {
        let testKey = TestKeys.rsa2048[0]   // the test chain's root key
        let message = Array("App Store receipt benchmark".utf8)
        let digest = CryptoPrimitives.SHA256.hash(message)
        let signature = testKey.sign(digest: digest, algorithm: .sha256)
        let key = testKey.publicKey
        let openssl = OpenSSL.RSAVerifier(subjectPublicKeyInfo: testKey.subjectPublicKeyInfo)
        let swift = try SwiftPeers.RSAInput(subjectPublicKeyInfo: testKey.subjectPublicKeyInfo, signature: signature, message: message)
        let digestBytes = digest.bytes
        return BenchmarkCase(
            name: "rsa2048/verify", expected: 1, byteCount: message.count,
            implementations: [
                Implementation(peer: .ours, body: .sync { Ours.rsaVerify(key, signature: signature, digest: digest) }),
                Implementation(peer: .openssl, body: .sync { openssl.verify(signature: signature, digest: digestBytes) }),
                Implementation(peer: .swift, body: .sync { SwiftPeers.rsaVerify(swift) }),
            ], target: .rsa)
    }

    /// Checks, untimed, that every decoder finds the same typed values in every receipt.
    /// Returns the receipts a decoder could not decode at all, and the mismatches.
    public static func crossCheckDecoders() -> (failures: [String], mismatches: [String]) {
        var failures: [String] = [], mismatches: [String] = []
        for sample in Fixtures.receipts + Fixtures.syntheticCounts.map(Fixtures.synthetic) {
            var decoded: [(String, PeerReceipt)] = []
            for (peer, decode) in [("ours", Ours.values), ("openssl", OpenSSL.values), ("swift-asn1", SwiftPeers.values)] {
                do {
                    decoded.append((peer, try decode(sample.bytes)))
                } catch {
                    failures.append("\(sample.name): \(peer) cannot decode it: \(error)")
                }
            }
            for (peer, values) in decoded.dropFirst() where !decoded[0].1.sameValues(as: values) {
                mismatches.append("\(sample.name): \(peer) decodes different values from \(decoded[0].0)")
            }
        }
        return (failures, mismatches)
    }
}
