import CryptoPrimitives
import ReceiptTestSupport
import TestHelpers
import Testing

/// Test signing: HMAC (RFC 4231), RFC 6979 deterministic nonces and signatures (Appendix A.2.5
/// for P-256 with SHA-256, A.2.6 for P-384 with SHA-384), and the public keys they derive.
@Suite struct ECDSASigningTests {
    struct RFC6979Case: Sendable, CustomTestStringConvertible {
        let curve: EllipticCurve
        let privateKey: String, ux: String, uy: String
        let message: String, k: String, r: String, s: String
        var hash: HashAlgorithm { curve == .p256 ? .sha256 : .sha384 }
        var testDescription: String { "\(curve) \(message)" }
    }

    static let p256Key = (
        x: "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721",
        ux: "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6",
        uy: "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"
    )
    static let p384Key = (
        x: "6B9D3DAD2E1B8C1C05B19875B6659F4DE23C3B667BF297BA9AA47740787137D896D5724E4C70A825F872C9EA60D2EDF5",
        ux: "EC3A4E415B4E19A4568618029F427FA5DA9A8BC4AE92E02E06AAE5286B300C64DEF8F0EA9055866064A254515480BC13",
        uy: "8015D9B72D7D57244EA8EF9AC0C621896708A59367F9DFB9F54CA84B3F1C9DB1288B231C3AE0D4FE7344FD2533264720"
    )

    /// RFC 6979 A.2.5 and A.2.6, "sample" and "test".
    static let rfc6979: [RFC6979Case] = [
        RFC6979Case(
            curve: .p256, privateKey: p256Key.x, ux: p256Key.ux, uy: p256Key.uy, message: "sample",
            k: "A6E3C57DD01ABE90086538398355DD4C3B17AA873382B0F24D6129493D8AAD60",
            r: "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
            s: "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"),
        RFC6979Case(
            curve: .p256, privateKey: p256Key.x, ux: p256Key.ux, uy: p256Key.uy, message: "test",
            k: "D16B6AE827F17175E040871A1C7EC3500192C4C92677336EC2537ACAEE0008E0",
            r: "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367",
            s: "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"),
        RFC6979Case(
            curve: .p384, privateKey: p384Key.x, ux: p384Key.ux, uy: p384Key.uy, message: "sample",
            k: "94ED910D1A099DAD3254E9242AE85ABDE4BA15168EAF0CA87A555FD56D10FBCA2907E3E83BA95368623B8C4686915CF9",
            r: "94EDBB92A5ECB8AAD4736E56C691916B3F88140666CE9FA73D64C4EA95AD133C81A648152E44ACF96E36DD1E80FABE46",
            s: "99EF4AEB15F178CEA1FE40DB2603138F130E740A19624526203B6351D0A3A94FA329C145786E679E7B82C71A38628AC8"),
        RFC6979Case(
            curve: .p384, privateKey: p384Key.x, ux: p384Key.ux, uy: p384Key.uy, message: "test",
            k: "015EE46A5BF88773ED9123A5AB0807962D193719503C527B031B4C2D225092ADA71F4A459BC0DA98ADB95837DB8312EA",
            r: "8203B63D3C853E8D77227FB377BCF7B7B772E97892A80F36AB775D509D7A5FEB0542A7F0812998DA8F1DD3CA3CF023DB",
            s: "DDD0760448D42D8A43AF45AF836FCE4DE8BE06B485E9B61B827C2F13173923E06A739F040649A667BF3B828246BAA5A5"),
    ]

    @Test(arguments: rfc6979)
    func rfc6979Vectors(_ vector: RFC6979Case) {
        let key = ECDSAPrivateKey(curve: vector.curve, rawRepresentation: Hex.bytes(vector.privateKey))
        #expect(key.x963Representation == [0x04] + Hex.bytes(vector.ux) + Hex.bytes(vector.uy))
        let digest = vector.hash.hash(Array(vector.message.utf8))
        #expect(key.nonce(for: digest) == Hex.bytes(vector.k))
        let signature = key.signature(for: digest)
        #expect(signature == Hex.bytes(vector.r) + Hex.bytes(vector.s))
        #expect(key.publicKey.isValidSignature(rawRepresentation: signature, digest: digest))
    }

    /// RFC 4231 test cases 2 (short key) and 6 (a key longer than the block, hashed first).
    @Test func hmacVectors() {
        let jefe = Array("Jefe".utf8), question = Array("what do ya want for nothing?".utf8)
        #expect(
            HMAC.authenticationCode(for: question, key: jefe, algorithm: .sha256).description
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(
            HMAC.authenticationCode(for: question, key: jefe, algorithm: .sha384).description
                == "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649")
        let longKey = [UInt8](repeating: 0xaa, count: 131), message = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        #expect(
            HMAC.authenticationCode(for: message, key: longKey, algorithm: .sha256).description
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        #expect(
            HMAC.authenticationCode(for: message, key: longKey, algorithm: .sha384).description
                == "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952")
    }
}

/// The fixed EC test keys of ReceiptTestSupport: valid keys on their curves, distinct, and their
/// P1363 and DER signatures verify (the DER one is checked by PKCS7Tests' reader).
@Suite struct TestECKeysTests {
    @Test func keysSignAndVerify() throws {
        let keys = TestECKeys.p256 + TestECKeys.p384
        #expect(Set(keys.map(\.x963)).count == keys.count)
        for key in keys {
            #expect(key.x963.count == 1 + 2 * key.curve.byteCount)
            let publicKey = try ECDSAPublicKey(curve: key.curve, x963Representation: key.x963)
            let message = Array("test key \(key.name)".utf8)
            let signature = key.sign(message: message)
            #expect(publicKey.isValidSignature(rawRepresentation: signature, digest: key.hashAlgorithm.hash(message)))
            #expect(!publicKey.isValidSignature(rawRepresentation: signature, digest: key.hashAlgorithm.hash(message + [0])))
            let der = key.signDER(message: message)
            #expect(der.first == 0x30 && der.count >= 2 * key.curve.byteCount)
        }
        #expect(TestECKeys.p256.allSatisfy { $0.curve == .p256 } && TestECKeys.p384.allSatisfy { $0.curve == .p384 })
    }
}
