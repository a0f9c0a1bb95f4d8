import Foundation
import PKCS7
import X509Certificates
import Testing
import TestHelpers

/// Every single-byte change in the signed content, the signature and the signing certificate's
/// tbsCertificate of production.der is rejected: either the input no longer parses
/// (`PKCS7Error`) or it no longer verifies (`VerificationError`). Never does it verify.
@Suite(.enabled(if: Fixtures.shouldRun))
struct ByteFlipTests {
    enum Region: String, CaseIterable, Sendable {
        case content, signature, leafTBS
    }

    struct Original {
        let bytes: [UInt8]
        let time: Int64
        let regions: [Region: Range<Int>]
    }

    static func original() throws -> Original {
        let bytes = try Fixtures.bytes("receipts/production.der")
        let signedData = try SignedData(berEncoded: bytes)
        let leaf = try FixtureReceiptVerificationTests.signerCertificate(signedData)
        let time = try FixtureReceiptVerificationTests.creationDate("production")
        // The unmodified receipt verifies (else every flip would "fail" for nothing).
        _ = try SignedDataVerifier(policy: .appStore).verify(signedData, at: time)
        let content = try #require(signedData.contentRange)
        return Original(
            bytes: bytes, time: time,
            regions: [
                .content: content, .signature: signedData.signerInfos[0].signatureRange, .leafTBS: leaf.tbsRange,
            ])
    }

    enum Outcome: Equatable { case parseError, verificationError, verified }

    static func outcome(_ bytes: [UInt8], at time: Int64) -> Outcome {
        let signedData: SignedData
        do { signedData = try SignedData(berEncoded: bytes) } catch { return .parseError }
        do {
            _ = try SignedDataVerifier(policy: .appStore).verify(signedData, at: time)
            return .verified
        } catch {
            return .verificationError
        }
    }

    /// Each position in the region gets one byte changed; the bit flipped rotates with the
    /// position so that every bit of every octet kind is exercised across the region.
    @Test(arguments: Region.allCases)
    func everyByteFlipIsRejected(_ region: Region) throws {
        let original = try Self.original()
        let range = try #require(original.regions[region])
        #expect(range.count >= 256)
        var verified: [Int] = []
        var counts: [Outcome: Int] = [:]
        var bytes = original.bytes
        for position in range {
            let mask = UInt8(1) << UInt8(position % 8)
            bytes[position] ^= mask
            let result = Self.outcome(bytes, at: original.time)
            bytes[position] ^= mask
            counts[result, default: 0] += 1
            if result == .verified { verified.append(position) }
        }
        #expect(verified.isEmpty, "flips at \(verified.prefix(20)) still verify")
        #expect(counts.values.reduce(0, +) == range.count)
        // The content and signature carry no structure the parser checks.
        if region != .leafTBS { #expect(counts[.parseError] == nil) }
    }

    /// Whole-byte replacement (0xFF XOR) at a sample of positions across the whole file, except
    /// the embedded copy of Apple Root CA: the anchor comes from the policy, so that copy is not
    /// used (a corrupted copy is just one more candidate that the search does not need).
    @Test func wholeByteFlipsAcrossTheFileAreRejected() throws {
        let original = try Self.original()
        let signedData = try SignedData(berEncoded: original.bytes)
        let anchorCopies = signedData.certificates.filter {
            $0.fingerprint.description == TrustAnchor.appleRootCAFingerprint
        }.map(\.range)
        #expect(anchorCopies.count == 1)
        var bytes = original.bytes
        var verified: [Int] = []
        for position in stride(from: 0, to: bytes.count, by: 5) where !anchorCopies.contains(where: { $0.contains(position) }) {
            bytes[position] ^= 0xFF
            if Self.outcome(bytes, at: original.time) == .verified { verified.append(position) }
            bytes[position] ^= 0xFF
        }
        #expect(verified.isEmpty, "flips at \(verified.prefix(20)) still verify")
    }

    /// The embedded root copy really is unused: corrupting its signature changes nothing.
    @Test func corruptedEmbeddedRootCopyIsIgnored() throws {
        let original = try Self.original()
        let signedData = try SignedData(berEncoded: original.bytes)
        let root = try #require(signedData.certificates.first { $0.fingerprint.description == TrustAnchor.appleRootCAFingerprint })
        var bytes = original.bytes
        bytes[root.signatureRange.lowerBound + 10] ^= 0x01
        #expect(Self.outcome(bytes, at: original.time) == .verified)
    }
}
