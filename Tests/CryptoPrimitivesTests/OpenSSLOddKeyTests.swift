import CryptoPrimitives
import TestHelpers
import Testing

/// Signatures made by OpenSSL with keys of awkward sizes and exponents, so the Montgomery code
/// runs with limb counts that are not multiples of the unrolling and with partial top limbs.
@Suite struct OpenSSLOddKeyTests {
    struct OddKey: Sendable, CustomStringConvertible {
        let bits: Int
        let exponent: String
        let modulus: String
        let signature: String
        var description: String { "\(bits)-bit, e = 0x\(exponent)" }
    }

    /// Made with OpenSSL 3.0.19 (throwaway keys, private halves discarded):
    /// `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:B -pkeyopt rsa_keygen_pubexp:E -out k.pem`
    /// (B, E) = (1100, 65537), (1536, 3), (2047, 65537), (2048, 2^64 − 1), (3001, 65537; OpenSSL made
    /// it 3000 bits); modulus from `openssl rsa -text`; signature of "abc" from
    /// `printf abc | openssl dgst -sha256 -sign k.pem -binary | xxd -p`.
    static let keys: [OddKey] = [
        OddKey(
            bits: 1100, exponent: "010001",
            modulus: """
                0de0aff2be0fe05ddabcc1f524a72c2e04089119d08326785cecd4233802c1caa9621d2e8c8fbf06f891769572b3fa30d
                0df9f07a7bfef0a6f2972b3d983c77495e2f129ce11a152de8a388e40152967e3db9d2ecfe7a922cd0b49cd2b29b424c
                c384dd948d725daf6ebe3a707c969c786c8d51412a188b00a1a8b24828676d1086edd2cb65de18c4101
                """,
            signature: """
                0578654745526a20bd6ce45b983475dc675000ab9a1dc6a5af835dfd903fce7434d9b10b7fd4da1cd0d7cb85f06c8833
                b8f85833f3927c005a522f4a5e7bb88c8cd1da6fe0de7c0cc7207a9591638111bd9ed8e4e16068c1713d69c1e3840df9
                088a078b56ea7d53449c57da77055a5d448e10885fe1f714f86ca3ad2872d2b757d576e0a2380e1e0c60
                """),
        OddKey(
            bits: 1536, exponent: "03",
            modulus: """
                c787014822c2f5f6eef9b59b7946782a43c8bb02a2c8a5be9ad72cc1fcca663ab59a7bc18fa10f6b96ad6b568d0b6217
                040eb454b1859e46f1de06e4d6a188d49d003d859502e4704127c99e4d0f232df28d9f3e68badf357ac9a33df7df43a5
                34cdb8f433f309c28845891190275ba7e471494189580e30aa53e2c20900340c3625e9a0685486ad66a73e269bea8850
                68923948a224e81196f041e99b80058cda7df2200b585ecb6c85d6c5aacf342708534843042874691dad32b343d63347
                """,
            signature: """
                29d9283977302166742cbcac6fc59b34101972b0520a41d4560dedaf89ea57b6047db430c8c00b017a33bcf6225432bf
                84103085eba4ef4328e411f003470cff30b880c2ab608732f28ff7322d633b8f27e97e5ec572d46d8d943349ea32ea06
                b0475dff378e2660de44f3b76fdbd16cf3fd005581ad69fa1b7da560fa9de2ca7a14af181c633c702905a5f0f9c85a58
                d25203a7e5b6ec29366f60d2a28690a78eee0daf3579a927287b1ed38784ccec691b75ff41e480f9467a2c7748b36b3a
                """),
        OddKey(
            bits: 2047, exponent: "010001",
            modulus: """
                5bb2e48b245e98d6d268a74aa0ed7244a0042ed751466b8d3666ff86b7f4afa753c27860792b87430770071c21961ed3
                4a33dc15a0d506de3edea6c45b14e93e8e11dd79e561bc0c02e809146a46cb543c1f1008a0bdc9ef3f7b13bdb20b0936
                eaad0aef9dfa7f2cdca25ff68006a3c40dc514765cf0136ea3827dc9c031f92f2f8d14203555771fcc0a5b949ff0079d
                6f92eb11cb78479e5545fd5d07de81524549f16f9b21e98cdea3489ba96e55664b5febdb56c8765bd59531f96485eb78
                49d553d35b3b1ced566a005b48c083086638c57783a1f3f2a8359d5841f2724b7ab5feef167c5beb42b954fe9d2573d8
                e120ec6bd91a34c3b30c1ed636dba515
                """,
            signature: """
                38cbd4262915c25784355bc91032fce4c11eaf207eeb13740f915f33c4d40648cda5016a9d2c3de3f0dfa3f76ddd7b65
                624f5c68c48f63e900a60411be4831c6b36f951c9bcaca2974443f9d588150dc1b7672e99f17d7a32767db9e90c02499
                5dee9d94666facd4de1220fee7fa1cdfe3fb2b3739985e141be50d0555046324826df4d131f69a6def61fba9f431d903
                4e23f4742f08c17fd549affc3fbc08f8cf75efc61a7194bf89d7538835bb4e46f64bf61b60755f023ee9fcbde0f3f803
                6770521bce9b6d7374df6b34cbd3bad849b159c7fd48fd0e189e4636b099d387789031e96088b2c384deb4435ac593a6
                10c5e4ecd42a3049f14c8f9936724158
                """),
        OddKey(
            bits: 2048, exponent: "ffffffffffffffff",
            modulus: """
                945666fd139be6d2496ae4ada8363c84f18b47a02774bbc863c3867ea4b863e52a5ee6e5f22887e42dab35b2e7f1257d
                5add0b25e74cf3df31bba13180e1cbbfbcf1609a7d9530587ed62ca7ec094112d7bdfebe2c8a0d290998542754068494
                32bb2edf215cb8eb185701528136b349f4b8c7f5f2a13e73452686f3e2a2c4a7ece0fa94e59a5b67b59cfb1ea0870e7b
                16b097f0449a54fcc4314b10552ee368c810e090411b8e9e936b91e058bb2aef13dbe05f7586e5ac88e584a9ac232e36
                a49a1fc2d0756dcfd11121aa582de11442a63d82bc3b3244090b1072440272f9787f0ff2fe8b2091c6cbd75b38bb9635
                5ca0c5b87389c91c3dcc0497a9f8c41f
                """,
            signature: """
                31247859a2a499c64fff84ea6a605e4d934bde75a360bfd2f2af41d8b181910e7cb7d3d3636563dacc3a049ad7240f44
                c2d68ea7541c2365f216f62fd7b7393430532ed3d3a1bcde54f63965d6302d925655e133f82064297628d4912cb9f0f8
                e38020b1341afdf013f2c734e333810ff929c777e5fb8117b4801ac11889aacf9dd43c18f3ded15f9040df6fbb237a6f
                6c67a1aee582a388df1d55a6d89fb84e5c79658437787ae6290d66d2cfce011a8796f2708358952f395784d459d2dd25
                f2875d99b3f8af599c7ee98560afc08d00c2a148e77be917287f552e3da1a046ae3e8dfb6be24a9910f8a74318a456d7
                9c11c8747fb05d092a78527387182e53
                """),
        OddKey(
            bits: 3000, exponent: "010001",
            modulus: """
                b54ab67e15e69d109bc51e1cd561dd5c83bd09af0f82ab47721e6785b892a820f4152154c567261e8e86c2f2215905e2
                330468f6ab63b62dc0f8f5621e21687fcef4c77e2768ee004d336957dd964d713720d5e2fb5d0e57d22a4a4022c5d24e
                250b7aa2acdd24f187fb338b5d20f526fcfa7db7ec8ed8cb27c227eedc4f9b98f035a39a3796fa177e0f6bb217738adf
                7d92f6646d41e0fcd2a0e9534295959a1d28ec7cb26f3a0ee116326039993254429633d319ec3881e4a30bd75b3b0433
                d4f3931a80d8126ddd1973a55d2b17b0441504e523409aadd0b7ea723c2d874428ecacf7055ee373e473df4d4f2558cd
                190b51e07ef01b28e7229d8a903f77a7c89cc1be0944ceb7a5cf435c0bd9cbef8290f2c7e468a2b48203e066c491060c
                068c2436938c9076376cfa37ae7d30f9b8f9897b6eb1bfa6e812434e1652b1580e4c0e9c4234bd7d139bb74a858ac0e6
                3f0ae8e8bbdbb506e68426b03ed39e0018168e62a21ae9fd73ed1ecc940b354bc5e881e36f5da1
                """,
            signature: """
                39c436799bae510d09716ce3c5d0692953cce7e36809abfd19277bfa0ed680d87dce15f77366f37071864dce5085ecae
                d12f0b533a1b585d7f7445d5b0b24c4b34a9c8ad9119286f10b20ccce0300ab028ca5108abb7418e5cec75635df07867
                0f21c6935dbe04c957fc669e79a08c98acfff09c81652cdf450cdd0bf6adf449abe97c4b6d0d0e3eab7db1a616905e13
                1078d20e7ae4ef02326c9fd17d3424eab76a4dca07886363c742f76e47b8ec6acfd957a1e01b961a1fa391fb54421e07
                67504a26d67477c13c03869f6749fbbd8bbe09814cd73ca6a56f2d501df3d1a463aa046f9d56631d88891c17b733ab3b
                812ebb8bb712e7a0f98c6e3946f222ebd78834f54f15645a6d67f8160507eae14a583d3e02c37a3741b9acc2af174d94
                2c3a15c4f32558b03ad607a1859de6eb387d2fd6f997567c3acd3f156413f3d8ec6def1f9e7beffd1a21fd90679235c2
                a33282c2e1c61971e7df2c650713c6b539aa77dabf5ed9c13feae75761efa28dac20a3a67684ae
                """),
    ]

    @Test(arguments: keys)
    func verifiesAndRejectsFlips(_ entry: OddKey) throws {
        let key = try RSAPublicKey(modulus: Hex.bytes(entry.modulus), exponent: Hex.bytes(entry.exponent))
        #expect(key.modulusBitCount == entry.bits)
        let signature = Hex.bytes(entry.signature)
        #expect(signature.count == key.modulusByteCount)
        let digest = SHA256.hash(Array("abc".utf8))
        #expect(key.isValidSignature(signature, digest: digest, algorithm: .sha256))
        #expect(!key.isValidSignature(signature, digest: SHA256.hash(Array("abd".utf8)), algorithm: .sha256))
        for byte in stride(from: 0, to: signature.count, by: 7) {
            var flipped = signature
            flipped[byte] ^= 0x10
            #expect(!key.isValidSignature(flipped, digest: digest, algorithm: .sha256), "byte \(byte)")
        }
    }
}
