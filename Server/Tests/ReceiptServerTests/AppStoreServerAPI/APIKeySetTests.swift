import CryptoPrimitives
import ReceiptStore
import ReceiptTestSupport
import Testing

@testable import ReceiptService

/// The In-App Purchase key snapshot: unrevoked keys with their verification tables, a key whose
/// point is unchanged kept across reloads, a changed point read anew, an invalid point left out.
@Suite struct APIKeySetTests {
    static func record(_ id: String, _ point: [UInt8], revoked: Int64? = nil) -> IAPKeyRecord {
        IAPKeyRecord(
            keyID: id, issuerID: "issuer", publicKey: point, bundleIDs: ["com.example.app"], createdMilliseconds: 1, revokedMilliseconds: revoked)
    }

    @Test func snapshotsKeepTablesAndFollowChangedPoints() throws {
        let a = TestECKeys.p256[0].x963, b = TestECKeys.p256[1].x963
        let first = APIKeySet.snapshot(
            [Self.record("K1", a), Self.record("K2", b, revoked: 5), Self.record("K3", [0x04] + [UInt8](repeating: 1, count: 64))],
            logger: TestServer.logger)
        #expect(Set(first.keys) == ["K1"], "revoked and invalid keys are left out")
        let k1 = try #require(first["K1"])
        #expect(k1.publicKey.hasVerificationTable)
        #expect(k1.publicKey == (try ECDSAPublicKey(curve: .p256, x963Representation: a)))
        let kept = APIKeySet.snapshot([Self.record("K1", a)], previous: first, logger: TestServer.logger)
        #expect(kept["K1"]?.publicKey.hasVerificationTable == true)
        let changed = APIKeySet.snapshot([Self.record("K1", b)], previous: first, logger: TestServer.logger)
        #expect(changed["K1"]?.publicKey == (try ECDSAPublicKey(curve: .p256, x963Representation: b)), "a new point is read, not the old key kept")
        #expect(changed["K1"]?.publicKey.hasVerificationTable == true)
    }
}
