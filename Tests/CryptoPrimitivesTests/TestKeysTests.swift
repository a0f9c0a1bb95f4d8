import CryptoPrimitives
import ReceiptTestSupport
import TestHelpers
import Testing

/// Signing with every throwaway key in `ReceiptTestSupport.TestKeys`, checked against OpenSSL.
@Suite struct TestKeysTests {
    static var allKeys: [TestSigningKey] {
        TestKeys.rsa2048 + TestKeys.rsa1024 + [TestKeys.rsa3072, TestKeys.rsa4096, TestKeys.rsa2048e3]
    }

    struct OpenSSLSignature: Sendable {
        let key: TestSigningKey
        let algorithm: HashAlgorithm
        let signature: String
    }

    /// Signatures of the three bytes "abc" made by OpenSSL 3.0.19 from the same keys (kept as PEM
    /// outside the repository when the keys were generated):
    /// `printf abc | openssl dgst -ALG -sign KEY.pem -binary | xxd -p`.
    /// PKCS#1 v1.5 is deterministic, so ours must be byte-identical.
    static let openSSLSignatures: [OpenSSLSignature] = [
        OpenSSLSignature(
            key: TestKeys.rsa2048[0], algorithm: .sha256,
            signature: """
                00825a667a11e066dd4d285fe81eb7d18ba8b33b99d40f36bef6f32aa5ac1e1ffdd451ef61bfaae1ad3a64372e9603ea
                327ce094c8b5dff8ec2d7f1dac9b9ebccd07da48e64a2002cde6cf81b2e442b3679b0fb797176e54d754b4606b79960a
                44ebbb72469be5aed40efa63f6cb69366ef37d441b4407056eb7fee1847d952d7059155f5c3317f382ccea9b4aa9e028
                fc8066cf93d79d18359faea1fd56a793651563026247adcb5ff6d2647c53027b771bba7203a82dd1570f37b56543ecae
                9b1d2494cc2f30dd1de9894791f37da0e896bb08426e86243cfc46011f644ee99df8e77bf65adca10de862806a41a916
                28b56a6a0899187f5f7567ab75474127
                """),
        OpenSSLSignature(
            key: TestKeys.rsa2048[1], algorithm: .sha224,
            signature: """
                c73815fcf7eab43fce4122418b9784273e6f8aa2696c2eb4b8398fd51855dc901478597cff81ba2b5bc38ae1d3a490e6
                05184d7461ac12fbd174451afb43d2bbdf4a0a47e6667f537a8eb123b60c36993b27fa24b52757f32b94aa312ead2440
                090005102b2ef262073ef68f1fe05f57e8b8c61ea0e2800613fb4945fa6f052b8e04cdceaebdc17695e08e5eec74ba23
                7b8df005f31a8851ed0b3af8e840788ab77776be59587f5495d5a047b91e0e91b5d783be77b5298fcaa1cb3aa292e3ae
                a661d50056f1c4887ee622998b41e646adc4f742e686cc8eb8c74c9dccebe3fdd2fad31dbda69dae25f48c57d9a20727
                1caae9b379126577c7acf4d359f92671
                """),
        OpenSSLSignature(
            key: TestKeys.rsa1024[0], algorithm: .sha1,
            signature: """
                64fcf14ec4f8135a8db1d188b8a1bd8d4e75348346fc88bcdfd23276a750cc107549b7433e18342c9d2e983c1714592a
                227b8de91e41e5937f756c6ab46409bf2476e054f47c6190dcf013fd600d6083227e902c330af2d66ce4d702cffbab8d
                88fa1b7beb473fa2ab875237c95354e195b2502294469cab84c10d9de4477643
                """),
        OpenSSLSignature(
            key: TestKeys.rsa3072, algorithm: .sha384,
            signature: """
                d43e00222786bdd1aba0f439263416f6f9134adaa62d2ca2597bca77d884af3efa85438ed57a1aa1b6de77aaee30cc40
                f7af449ba6500a1340d9407d28cdf2bb2e83cb782230dda51af6e0e3bd6c86153957509f982379aa7b0daa5586f3d11c
                a72be950a6b02e85e20e0c9b948efe396a8d6ffd313d535c04fc6f09fc4f290f047d5b4d311355b1302bc20024f8e287
                882e6bd4c908fd2dae432f0384a5fa9ee5677d0ca03d451245f266b52599809f1f2ef59677bc0da20f7c7b017fdf145e
                dad6b37e363cf0b48f16b84acee5d78454e19db7dbe0b49f754a83f09824a14739c0528c142328f5d983d6e2bd319feb
                bd4cc3e9c968c7bfaec4d798c3f7182f36d49234fe242b689b7194875b969024165fee1a34daa723ff2e8fdb4ea66932
                204c8cf785d3553ce330d20e86a4fd5a280f75587335367f3ae73004e27b56a0a3b6b51bed9521e9c875950e33ec5ffc
                7dac8b3e6860263cb938ea4c79cf04c18c33c85946853dd249e08ca062e322df1aa2159e8788ef06d5f9b88006eef7d1
                """),
        OpenSSLSignature(
            key: TestKeys.rsa4096, algorithm: .sha512,
            signature: """
                b75694c56ed270dfe01fd144fa4f3090901deb556e312bb859312b6c0122eadd04ff04bbd4e77936dd04ecea0d19956e
                dc67133064c635b177e909ff70f29a7438c9d1f11d608366c219b3e58a25fa5ba0cf5015e5006af5461fa214786fc518
                7d59d1666cb42cf51c4706691d52a4bad0dacdc81d7e985e1975322dadcbb462a39370d51ff3e50f5ce4b12fde0e11fc
                f637785a110c4ac6f5c1b663bfc292a1bf70503b5e61d23ad026cf1773582f1f5a57369fdfa5c1b95be6a47737aaa419
                01fbf3e99dd65049d1dec54703ff1acede5a2d9a1186d13ce02e6d9a36f8f183dd44257890ae37152b9ccdc160e96fc9
                d1bb7ca6b6b1741601958114ceb9d9eb1dcb903b642a3c7c58dd9cee50bb3965295742c1af904bf233c227437b19bc30
                7fefb25fee98eeb2a953a20fe79db1d542fd8f0ddce1f7680f654534ccea6ee9e1f2e41a3a902cc29a7d7c1d063c06fc
                aab7ddbb0bf1e2386ee8ecbe86ef5b52d2941a265b781aa6f4ad60ab4f4ab2abbeadcafc1c1b696fbb48a77a36851e0c
                1603cec79f9cd3a378e573e3172fc616cc3104fc3b8df88e54f8d303adcff73e5e84bfaa9e221da4ac8853245ac16787
                911f97463545dc2dcf421a6dc97e8266e8e3cf2de9a8b41b2fcb78da9918f7eb2b204a598cc1e158adbcd6672e3df414
                194cc8dbff2d32536ea06cf359eda2814849fa8c6d7e67b1a7205ba6b508fc5f
                """),
        OpenSSLSignature(
            key: TestKeys.rsa2048e3, algorithm: .sha256,
            signature: """
                9fd0a24ac36c3b92bcbd85a2f8d4f4fc389e52d50823eb05d5dc34a623194286c4988d80798234703da34c1b5a240c8c
                3fd6c429af1fffb8fbd2cc2c298fba13b598c8d7f7637013910c6adadbac928b9a7a4e20f53371dd4321ace7f8ca1433
                e30b19f5718201b45ffe0436b9c49320dcf19cc784b58f3f78490fcb291708a7d916310d74b2acac5a975f4f4becead1
                1ba4a9eb356c1a9d274179aefa3c5608fba5f9572136c34654153ce4d5432221b4e23007d40cca9921a334f6fb9a2799
                793c7a8c85f3cde4b3d60ac9356a2066dce07ee3cc3db0b35048fdf4cd5c1ff4ed574f82aaaec1ec8a544ced6f43ce7e
                669ddeaaadc0b63e0112fc8e6f9d1b76
                """),
    ]

    @Test func keySizesAndExponents() {
        #expect(TestKeys.rsa2048.count >= 8)
        #expect(TestKeys.rsa1024.count >= 2)
        for key in TestKeys.rsa2048 { #expect(key.publicKey.modulusBitCount == 2048 && key.publicExponent == [1, 0, 1]) }
        for key in TestKeys.rsa1024 { #expect(key.publicKey.modulusBitCount == 1024 && key.publicExponent == [1, 0, 1]) }
        #expect(TestKeys.rsa3072.publicKey.modulusBitCount == 3072)
        #expect(TestKeys.rsa4096.publicKey.modulusBitCount == 4096)
        #expect(TestKeys.rsa2048e3.publicKey.modulusBitCount == 2048 && TestKeys.rsa2048e3.publicExponent == [3])
        #expect(Set(Self.allKeys.map(\.name)).count == Self.allKeys.count)
        #expect(Set(Self.allKeys.map(\.modulus)).count == Self.allKeys.count)
        for key in Self.allKeys { #expect(key.modulus.first != 0 && key.modulus.count * 8 == key.publicKey.modulusBitCount) }
    }

    @Test func everyKeySignsAndVerifies() {
        let message = Array("a synthetic receipt".utf8)
        for key in Self.allKeys {
            for algorithm in [HashAlgorithm.sha1, .sha256, .sha512] {
                let signature = key.sign(message: message, algorithm: algorithm)
                #expect(signature.count == key.publicKey.modulusByteCount)
                #expect(key.publicKey.isValidSignature(signature, digest: algorithm.hash(message), algorithm: algorithm), "\(key.name)")
                #expect(!key.publicKey.isValidSignature(signature, digest: algorithm.hash(message + [0]), algorithm: algorithm), "\(key.name)")
            }
        }
        // Another key's signature does not verify.
        let signature = TestKeys.rsa2048[0].sign(message: message, algorithm: .sha256)
        #expect(!TestKeys.rsa2048[1].publicKey.isValidSignature(signature, digest: SHA256.hash(message), algorithm: .sha256))
    }

    @Test func signaturesMatchOpenSSL() {
        let message = Array("abc".utf8)
        for entry in Self.openSSLSignatures {
            let expected = Hex.bytes(entry.signature)
            let digest = entry.algorithm.hash(message)
            #expect(entry.key.sign(digest: digest, algorithm: entry.algorithm) == expected, "\(entry.key.name)")
            #expect(entry.key.publicKey.isValidSignature(expected, digest: digest, algorithm: entry.algorithm), "\(entry.key.name)")
        }
    }
}
