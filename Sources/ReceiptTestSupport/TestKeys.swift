import CryptoPrimitives

/// Throwaway RSA keys for synthetic certificates and receipts. Never trust anything signed with them.
///
/// Generated once with OpenSSL 3.0 (`openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:N`,
/// plus `-pkeyopt rsa_keygen_pubexp:3` for the e = 3 key) and copied from `openssl rsa -text`.
/// Their private halves are public now: they prove nothing outside tests.
public struct TestSigningKey: Sendable {
    /// A short label, such as `rsa2048-1`.
    public let name: String
    private let privateKey: RSAPrivateKey

    /// The public half, for verifying what this key signs.
    public var publicKey: RSAPublicKey { privateKey.publicKey }

    /// The modulus, minimal big-endian (for building a SubjectPublicKeyInfo).
    public var modulus: [UInt8] { publicKey.modulus }

    /// The public exponent, minimal big-endian.
    public var publicExponent: [UInt8] { publicKey.exponent }

    /// The RSASSA-PKCS1-v1_5 signature of an already computed digest (RFC 8017 §8.2.1).
    public func sign(digest: Digest, algorithm: HashAlgorithm) -> [UInt8] {
        privateKey.signPKCS1v15(digest: digest, algorithm: algorithm)
    }

    /// Hashes `message` with `algorithm` and signs the digest.
    public func sign(message: [UInt8], algorithm: HashAlgorithm) -> [UInt8] {
        sign(digest: algorithm.hash(message), algorithm: algorithm)
    }

    /// A key from the hex of its `RSAPrivateKey` fields (RFC 8017 §A.1.2).
    fileprivate init(name: String, n: String, e: String, d: String, p: String, q: String, dp: String, dq: String, qinv: String) {
        self.name = name
        privateKey = RSAPrivateKey(
            modulus: hexBytes(n), publicExponent: hexBytes(e), privateExponent: hexBytes(d),
            prime1: hexBytes(p), prime2: hexBytes(q), exponent1: hexBytes(dp), exponent2: hexBytes(dq),
            coefficient: hexBytes(qinv))
    }
}

/// The throwaway signing keys, by size.
public enum TestKeys: Sendable {
    /// Eight RSA-2048 keys with e = 65537.
    public static let rsa2048: [TestSigningKey] = [
        TestSigningKey(
            name: "rsa2048-1",
            n: """
                a3390e69761746d92655d4e5bd75b42fa5e80f18e42eb3b19fb60adbdf0f905fad0b9e95cd6ace7b64e976f603727375
                9f14b3cb0f7eea98156a78e7ddcb1a3583165b4a3eca01e0525c8228af0f2657d93ffbac19d01b4689cd1d5f6fd2abe1
                d05c36be42ab8d196cdd2f074c6eaaa437b48ff5c1d1c31000fe9deb4112eb607054186947c9b40f24d0ebd5ec41f9d5
                5096c6f7fa008916520c42b2dfa589bc21ed54890c52aed7e24e9968f2e8dea88130b8a0b7a9e3bba4ee19fa24f618be
                5115576f0becdad10c737327fd495b4ec7984d0445ead77a1d670d675dad1a43b1dddd18d630056d887ada184abd7ccb
                7f093bc3bad56042967ea8ea0734b451
                """,
            e: "010001",
            d: """
                4320af0dae748a3dba67686487d3c5a426fe565f2d510bb40c7428e91e46df6089e1927a177e4aa732ec55717e1f6ede
                bbeb1eba6f8809e13c458aae09688341e8c4a40cd7dfea7fa03fcd83ffe32228d4ff5c78fe30b956fc4b703e14d636bc
                6b1dd1a1d3f78bd31e13a548c2256d6696465b427e50cf81607756e92edd2211e133b32da40e59c109cddbb384ed51cf
                04fbdc7138c8805b93d5a577fce786e8c815afbf1f85382d6e3fd5e59394aedc9fe8045eae4cb55ad3f4ee3a2c9476cc
                6298e562eb76ea72569cf835bfff3d59015e0c23bd2282147964c079b61e12b8c786cae970dcec427b5ea058ef0f30ca
                92915b05c981b2e71af02a0bbf6a0b55
                """,
            p: """
                e5e61a14de5ef7b0fb9fcba32a8d5c6a9519214713dca080c939aee932dba06119912aa468fa3cbd9633fb12e4a2d87c
                c6d93ca78bb153400f3f3b880376c53534fa380a4468cc55004c12e52e180ac8b7b9d6b94cee8c5b33e8aaa4d15ec5f0
                386ccc06b3aa9a109556930d33dcd6ec48300401553351a3074b91a436c457ab
                """,
            q: """
                b5c10ccd2d441e623614e97049d048fecef4107ed2c4569204b3fb37143c7808272d37706887d0aff1a6dfd230b5fb85
                4702bff686636b9b3aa809c17aa63047c757ce3c2117db25374f538bb94097f4b771250537712ef80362153b95cbe9e6
                f779929f1db3c4bebc406c3de181caed0a3a3e71d20032933b828f9a993f77f3
                """,
            dp: """
                8db68f7139b9f498e62294565a0e955f25d53dcc20942963f9a6530970ce2d486d882c6ef83ef85e2d4e91800debcbe2
                ee784e8940f4e7ca5f1bad48a449fc3a5613bfa3a493ad10e0840449bd66188fada122994ab0e957f6e17efee608b39e
                e6493a630f312493005b437e29f00193d8d3b0445a0eae4dfe5b38c5aef4cccd
                """,
            dq: """
                2de263b9f4a08acf1e7a1f08c309bb33e0c94ad4c99ed9801981da7ce835efd397185a339da013f6271a8accc4915cc3
                23cf34e926ba38b34296a387ddcfd0c67e33d393e882de4741f45bd21d5d8a3f348472e5233f06ad842521d91e1311a4
                c67b41a1bbdce36187a2f7f0935ab2012fa0ce9ceb78334c6a2ca6d64fb3ef33
                """,
            qinv: """
                0aceb8b43691f9aea0417bafb686a35162f04381f82efdb1476d82ed8385f317558824862ca7aebc6745e37df1ea7404
                7b3879809f4443992c035b2d0538ec0b8b4b8f4b1919bfda9f115aa374f2421ab185baf7d4db927a496da21c2746462c
                8c60acdcc71555b78a0c3d0a1004470941f2fe38ccd5695f3122c0d0564a7716
                """),
        TestSigningKey(
            name: "rsa2048-2",
            n: """
                fb1df2e79da83d9bfd6ff7b93f7f7dbceeef3fbeb93b4074d4b6f4740db5b2d424384ebcfb53c30718ad6d132ea204d4
                10b253d04b8c3242c18179dd2f9cb169f57113bf15eb243db39a03459f5b33247eff78a11516f72f12ee0f20643e1e9b
                6710f4d770d056401936d2d90180787c1f4a37cbfcf8562098acce3c92b9087aee75a5b3b6c34e81f767e456ec76edf9
                8363e3c6d96476747ce0559951365ee5d3171ab030d3433fe550111766e2978eb4b9bdde60bd2d1d808434dc500cb404
                ab2bacb74e757e401970e47677abdcde4ef223ba9077c52b7643a164c04db3fc7c6b53852afb185e4ba08f7b3d9175b0
                5377d6687d21aec9fb20e6a0fafb93e5
                """,
            e: "010001",
            d: """
                289ff16261120d02db09adcf8d4de87493f4514c09ec0e586d953a3a3ad6e5f05b4fb4afeeba354c9a446c3c9f330789
                9b388e45f35837455a1d6d2e9da641841278a6fe27389c40a879465ae6c08ffc868323ebc35d576dde7d1ed0af06e702
                b30b7e360b0284019352ad8cfd28e07fb6bc2b5cad372bba7d9899e0c3727b1968c8593cb50259e96f688efb98b01aff
                63515d79104f9e8157eefb4ff46198cb532889d838119243f6b0a8866580a7ec7fda637dc4ef5572fb042f8461095a7b
                86f7b6fc93530f9e488b8f9423e1a346dd1eda64e781c2be3386b51058a90d071d9e7519aae29fbc89febe8e1a47c21e
                3c42fb1e563516bdc3a7c97a2c20f0bd
                """,
            p: """
                fdb2e90380123213a205e6cb0eb3b47f58ce01d0d7e507d4401223968e6bbcbbdc6f9ac65716e50abbf5bbf2ed02e976
                73775b15ad494861886e67ac9f922109139a9815d3f8866093824ed3ae711dcc7f8de19d745bb5bebc26eff6d6abd752
                a789e3f2804e1610c67e2b26a9ddc50e20b254609aa8b7ec3fdc5d23a88132db
                """,
            q: """
                fd650b22d9e4072e10f447823b681306846bd5860e4b692970407eacb8a9449c0b705df87801e63b30e32b31312d9464
                59ea2a6040b7dec96e5ccf18a41d59f843e362d6e9ccdc0660a9b5cc0a31d32379a219503e9d1ee30ac8eaeb3600dbbf
                f93cf66c5912994a1f3ba28c9f78e4cffc40e625a1db495bf48d4f0cd025303f
                """,
            dp: """
                8861c86fd04677d32413a6195ce2f052514c159fce9fd9d0994ce702c5b757336a7238b30d184ab2b58e89a6331190ad
                d3aec33169016f3eb7581ab5aae6a489bb972cd0f72db01774d4e549588a88a9699cbd3fa6d0b26841bf70dab256989f
                5f5f7a41e0059a49145bb918c4d26a5f88e63503e5c07377367161448d0e3f67
                """,
            dq: """
                d34efbe66845dc26f244838d7af4e348c00d1cd6d9fcd109996e6f34a219a5f96b209d7ca2b712c3b194ff63da5ae430
                7b3ae773b504a068e1fbcb480533e4df3fddd382dd1dd52e0c55fa20d92f8b9f3dc38bd07b2693a74a4b1a7c63607be0
                af7bc313bf83df090cdab2470a85ca6a173617b6b22f2811e2f22445cf1df409
                """,
            qinv: """
                7c325d65343a6daf52c517be389c8f24fda78b612440933d27a5aa3f100122a8c00a50c83b8c80061c8de2798b6cb0e2
                e25cff102d3bed118bcde2fb0571a13b5828ac7b22c542d2e365db2553fc6ed0227eb948a40f5ff8258835fd8b6f8204
                7fa06f0fd4632afa6372d1ae2abdda51df05f1fb29252dcaae434f31297d9024
                """),
        TestSigningKey(
            name: "rsa2048-3",
            n: """
                ceea3b682755212522447f86a351944d6237256c3e271375227bcb9addbb5ff3701cf5b1bc74fbdf32c3d140e8fd930d
                548e68473023032c0a90b8c1c370dd2ac0e4b734bf97f6093fe2bfab7225a418c333116a6c8db14ec48cceeded620892
                3d99abe6c682f5f6b390ad174490b9c4d392809f1f2c7e212e86e64dc96ddde7ba1f9501ddd3de1d3b6d0a79bd6b3832
                4c7fa301c1a16260168f080158e836e47efc2f47e82ef97fae1de0db1b5e1b6a07fa39ec18dba0142229d21663cca865
                0fa4f2b453e6b155581ad36d4afdae28d786e18568b58260fb22eea26c81fe96be2e1d0cc2b7e1f99f1ead6eb2f3b7a3
                a2e09b2b164532426f0bd5fa69ebc6a9
                """,
            e: "010001",
            d: """
                06439108d627fd98e230b0aba2c615774241e9201dc191153ab604b3eb8280a51dffc2705f042b9bd62d97681fa58d8e
                19c135e6f1ce1d8a77c769d073da36d7d47f180cc0c018f2aebc6e910223a1941e54ad724b56fec723ac1f979458236a
                49f31d011f815770e07ec0beb394ae0b075ca80829296fa8118083f856e0bc96f94f67b85e986c3fe495fbe182e039e4
                0937f733e7b183302fbd2b21680bf80d48711c21a31d12673f881ad36d99c8085641d00226c5c1123f52f7de01ebf8f0
                8429245bd00652240e3f9dfce55e776fcf7a7cb444dfc58e5a01fc88323a504ec8e1162b644a3fcb6f62edfa3691f69e
                8352ee88ebe57c707992ec422ab3ac01
                """,
            p: """
                fa6b4b7fc0a30e6651bcd880002ce1ae57598913a9bedfca4528245b7771c44da7408c94749ae15a1f53b377e9332c68
                7e6f6d394bbcb82955a5df3ce314f9bcbcc84c7c69a609be1ec879cb96df1a2b1c8a36a2d66699be5ee51556e9525322
                488315f6398d4ef58f139fe86906678dede404cfcb7f37cc4a412d474c4892f5
                """,
            q: """
                d386bc1e33cc50b4bd933b54bd04f2de65260c02e1822365f4d708fe3eb45ed095e034ed5af88b33c27c74284d5dd1d4
                56af2706924b502ccff8b2b9459f923515bea59440afdbede2235a14e2231e8939a883d1da0b7f96478d856682dcc30e
                1ce915fe79fca0bbe907439216ceb52f434079fd0afa9487f2ce09133ffb1c65
                """,
            dp: """
                599d5e0658ccc151727ccf4977469878c87f9d2371428259a3480b42c44aed4210d173bd88c108563511c20eee6046cb
                1a3c0bed4e223a1168ba145a78b53fedffecfa1a27c0a889e6003e3dd23f02e15cb4457b1e98d6fa1e81829278aae25f
                496dc7c536b15009666b52755c685354a2465046807f855b515363bdb919dba5
                """,
            dq: """
                590bbe43a4a09d5508fd631bb01ad6370333ba18b8603590a53aa5018ada19940b940013ef98f3d8cd45e10c5a4d6598
                d309170fb0245e530f15edff0aad3b3a77b5f3346eead955d23df99d12f99fd03ae292e393bc0570f91c3d8d4307b661
                499061fee7d18ec4ac3baf995f5a93719b0918918abea42a7aef7b688c25a4f5
                """,
            qinv: """
                a900374979b9e65f1f2eed6a8b1c8c57a67fa054c118bf327db682f774b99f4ed926f1b99b033b1185b469b64ba9e0cd
                a06592bf5802c09615bb24f9f79407e79c1f31b6d8d18da2ca9b0ac212d4c3a169bd5e1ea24a9fe44970314de92a1dcb
                b58fa36b74c46879204b53d8416a719ef2cde05fc07ad289df0d279bbec2e3b6
                """),
        TestSigningKey(
            name: "rsa2048-4",
            n: """
                9335ed6ebddfd9be45dbfb827d9c682f5a473702e8e32a9227f69dde17101b55351efa2ac3edbea01202ac0d620c82d5
                3212fd848cac28ce6b441a3629bdc8ebbca19479d45e2c8d48df3ce3d80574e3f7189aca66285445122e209278beb086
                5b62106550d2d6127c7d5e935b53301bbf7be7ed1c59b092dd1e43203f7e19ac25c63567c8bafb8ce988e0f2f5f69467
                3c33dad138846dac748cbc03a7ec508a06bd74c0e04264181cc840ab1d1bb9fd2f6e31d88b6dbe041fdce25480c12b77
                cb3c941f68e25f9bcbbe5bee821181923fdc941058ddc9f0ef889b46a1b2f9d830e8953d4cd4e489e5b290e4c7dbaed3
                c23287ec8bb0b7ea09cd9bf552d871c9
                """,
            e: "010001",
            d: """
                218e6a6812fa22ed5f894ca4ab336b005848e17e554deb1753eac083aea82a42db100ba091f6f0bc163eebaf45496acd
                6453b5dc70209250b35cdbc8baed1b0eb979ef9971d261bf76fc042a3fc4c6a76c5cfc73e4a38eca0be1dde4e5873a3f
                f636bd5c0af7747ad44bd3b22d6022184126e27047451e9debaf8947a19182124600c962638147da8bbdbdfee80fc634
                a608b33fe55987712e02907e15e57cd82a1c0e5860eff43d417a8341c4e5c2273318ebed861f59b9b60430fa3506884c
                4d1c3800b620755c194d9f12119b00a2054f819a045ae4a98226371df160fec9545914a6493759fe41945863268e32fc
                4a6423bb75ff70e0481a2f4586a58af1
                """,
            p: """
                cea8d2425ab1055a169572552cc194ac523cc6bc924bbbf4fd4e0e648fae8fcd9c7f235c86ed806e2ebb51ed0274c117
                1c73be5ab29a5a79f205f2b19dfa28f61f6c061a1852059f9f40f031785c5f49d5ddc38ea436a2f8c258b316f6e14a85
                e99438b3d5769bd6260cb99e8e2e4f458014aa0866f4884dca8b9139c48b2b45
                """,
            q: """
                b65b8d24f813f2310c7d66c1bcaf921a043f103b5e0067a42537ad8f1529fb61ef93df38de82780f9f31673d988fa618
                b9936d4c381f873bd608dab91c9530596067e24c6da892efce9f2c4e118540383d00df5215a10d27bbae3fae84ea1e53
                3c681a43b0790c21c113b3e1166795b2bc304da94d4809b5a05c98cc484812b5
                """,
            dp: """
                ce9b191a1d713cd8841b84e2828c4606c170e17f45035235ebc84dbb5baa393a666af4ff5c25b5707267f3cfefd4a9f6
                610b961336dbf9f8506e81e3f0fc585737b2d7a6df09a175a3d158511cf3bc9024b041022a4a35445d883003956e4702
                fa32a53da4fb9f70c9398f9964ac07b4840824b5a1b8774cce621a1e96d04bc1
                """,
            dq: """
                17e625b85b9ed995de0a2d4664c129c7a918cebac9160a7f33b5795490348152938070b7d649890c9b1371715c262f61
                7c28bb214b15aeb683d5833cd16727fffea77ebbff7f214ab66c9bf4db4cf85ea6780fcc8533273336e09e4df3f36ee7
                ffb9b0ff80084d33bb4726c2f019c13fbc742429750c64e15dd3e4de98f68125
                """,
            qinv: """
                9b7815fb3bdd2c8779048ba7e623cb628aac0336af77b9b630028f129baccaa0c3130b63254866050bee4da99774afbb
                251f4d8a93dd86e8604e9f8412da2c2f1dba4a633606cbfafc289e493505b5d37f45a9ac653fafdced7f12e3df85cd00
                3f9c1bf0bc275e700cace2ae78e4bcac3d3130f9738ca998e2a4a178fa417810
                """),
        TestSigningKey(
            name: "rsa2048-5",
            n: """
                cb62527c03d89e6777a08eaddff2db0f9faaee3fd2585492ec308305bf5fea5428cb6a47e083d30e436f77f1b9e87773
                b2c7c07325a2c7a967a00fc3966ce48d02e4f250c5a3474d3befba4d2c4f4fa289ac24a02bff40a528f949997b4e7070
                89548df49d72e0eecc26d46fa3433c2debff0b7e48dc84e01b61cf0cef920c10d6665fcd019d8a24b3295a50b1d9d3cc
                8afee7c677c395a92db30eb942b91d742a85c04cbbffb6f7ddf1acd36bb785fdb05544c9566743cf68c95ed96564695d
                b8f0cc61d52bc9bad8bf0b85e1d3157f810e76d66c91e49d108b3a98f2ed3b2dfdd276d410289c3217540af391d331c1
                563959010a2cec1269d6927b56631853
                """,
            e: "010001",
            d: """
                4656c3532b9b5bb14a00a7c7bf9784a683208114668171027d180c004d5ef532550780c2ca059d5526026397a0a5a2c6
                4b52e51e8daa1de65b35d2ade094d978614360008a51bd639b327e1a9993f6652ebaefd1cb55947c6a4ec8e3016fafd8
                63ce6fe7e51a296bbd0442dd3738161485b567baada54279254f2ee5f8e6e82fbe3df46cd4bc5995adfec5e86aeaff9a
                9181a799415c0e31b638373810694d819bcac1b848540b86942c444cbbebff370c679bbc9b983099774189ea69133cc8
                374336e3084211d538a208b3b956704e8de627813c3b8dab84a24fb505e8f67ea731efa331285540b566cdb8d6ad90c4
                3f1a543d85d63b4af0c119314c1ff209
                """,
            p: """
                f6c0e12a9001738209dc39c7ce8be9e2a6194aba0d523b557ff404eb3b7263bcd484f4cab5ac863ae5ff5b1f0959ce96
                e1bc6b13263bd04f96bf271b33da884683d74f15492cd28596a41e1e0c6779fbfa6cd02b7c2f25c64f950d9add97e7a8
                51f6092aa37cf4a6684e673dfacb3aa22323115de619f51b9598a3d9b3e2b579
                """,
            q: """
                d30165d2902322b130e95f97432b473db1a399b4cf161a342f34f789c19291fe6335480249696a130546ab145ea7359f
                ff12785c376c57b94fe6ffba3aab2eec4698894351449d0722ff27d3138e6913cec623c08b078c2a169824be5ceb550d
                20632ff3a7d383b503cfaa9783685c4d49ff5a7628adf013ff41e158274d452b
                """,
            dp: """
                e633b99d30adf9ea0672eb80e9c404164be96a9aba94ce000d184582837a4b6c3e442feff19f9bb6d51def0fbc748954
                a0125d3e873be4326c2bb73b1c9c32e8be551f557768169b4497a5f558932ced948af186b01b783d53bf75ead5f2c2cf
                786f75cbceac63bddfafcd87b832e367a22a34288ae40a948a72d5e1e37d8cd9
                """,
            dq: """
                a97a82ed584650541fe4229a5d2202cba3c5b2ec8e34c3814cb56f699f27f9c968a7e019ae1b544ec8bb15287c4a3381
                3a1ffcba9ced919c4f784bc8a9dcdb087e3f8068a87ac2e17b9393ca2ef800a01f41f86f6b7bf971c8ca15212d82fbc2
                5a5430acb50ce7c9d9b0cfe5786fb74b80f6f012dde3af64706edaefb2499717
                """,
            qinv: """
                773d1cb0d7efe1e4f0fd8b3a7232efb81af4d3551cff526e90b672d1ba688862a51784e23e13857be68a8f5a1bd98f14
                4a48734d1b9f66db670c47e18b8c71f93df1357775f48ce4e35d3f5f329053688f1df0e31c33584a1cd0c3fd9fa97d06
                264eb2fb994f150496c79bc8e135fea69f676341e010cea818453cf8338b7f13
                """),
        TestSigningKey(
            name: "rsa2048-6",
            n: """
                acc364f9266090230afaaeadeb99eec4c9f70fb34c0137831d28fafb33c36f34ff7ae36a0784938fe2a5cd32e00106e5
                493b3c10335f7aa93bacd2218a48d8326fcad95246239627123de787171c17290b49af5d71c8fc0542a1dd561a9e832c
                daa840079705d317e1c83af49a2d1471560d6b3765c74fb3a932084b6d0e47c490b6ff040034a0ecb00aaa8bab280230
                221c4c46b8d88eb6d761d349f9fd2a0c6d4a17edfdf007f3d797203ce15150d270f5cb20dad5714029b38f11b6a1ecd9
                6d5e3310fbe463b0bdfc97265f219fa73bdc673be35f99241a05d05e71357162e4207db333d2aa62edc926de129d7289
                fcf6eb2c0c494b8f23e55ea2321db087
                """,
            e: "010001",
            d: """
                6e565ca6c35be8b278d0a1bf72395dc55137f94f09bbbd387fe72c64432b0e5b4acfb16e865ea5dfbf61252cd8e3cf03
                a141b39aa534d5a23ffaa039cb97ba7c7be991e279e9407cb3a9d5b4f18d7f3d37785807d62406d1553d0b9f7260ca66
                5b4019a4bf4f790247b119f61e81ac0cb668db9105efc5777917fb3430f26de28d79860036038d0c5cf13ccafdacb383
                886c58b6932d8942ed912111501d54b4a125db991d27343999911a0f5bfcbc9f0b8600ebec707786e093c7bfceb6e114
                52ddb93ab6b13c10128eb4b9dcc5caee33756c6653851203570da76aa436daa6602bd73eeed5d6f13da3e68a5695c22e
                d50f0a48bdd1df68612856c92252f5
                """,
            p: """
                f09916a6c29ea040f62c54c22aadc8bfe026f9f8d39b4ad01a2bd606ae03802f19426194ddc8912b08cf2c17db3e3d77
                14bb77f37052b96253d9c816812ee989388bd2af0c92555d84dfb04819610cff5f3357104e9c59b78349456002702168
                903d2211ef7ec2342ecd0b033618401695ce98c304e214a90a6888201d9022ed
                """,
            q: """
                b7d2a1f19ea3af278e0acd32d514265ac0e1f03b3abe43ff1076e0de65865b13689d42e163def11a88a5f96d1bebc807
                ef2e8173fd203f5b56dca980f1656968f0cc0a1dec4fc9d0c8f93c8a65da2a37234aec613560c4761fa2b7aa33d9ac91
                d87954b6c23e57b2ed0b8b85efe556d38dec3d84c57a9b888ae6f77a4b2eaec3
                """,
            dp: """
                05f0a1a088598637545c8fd3235e9b0031b684a162080976cdce9b401af7b728728533078bda31cb50325d3251955dcb
                1cd5ec063495b641f933fd3ea0fdd9822bc537f45e691676729b5b2ccc839ae08b2727551dbbba734f6875b0031f6593
                c14be11574463ae132ee9901014ae3fa2ac4a8fcd798054e8f1539972163b799
                """,
            dq: """
                360594ca2950f95caa85ca203236a5beee08784d2fca52b956e158dc8301a52a6308346b80aa3839100796f1d5cec90e
                6be042f30f64b6b9e5211c3f64b1e4f48e2fa8997aa5482e2fa1ef84ccc1fcbe0f85294ab821241b82d8931955fb9697
                9602b23eb37f16cee2930e01e2aa8785cca3acc0a4389014e49d540580aacb79
                """,
            qinv: """
                db6ddc2151225af3439b58cb82c3b4e18bd688b280ce39a8f659b8b649ee004bc5ea1f956f92939799bf6a0218dbf438
                50a2315eda6eae28d51880298991abe7e502c875487d1ee6874534d96949f403d053cd62d5b31e786b3390b27c0cb8ea
                e4fc6e62c159fa3897a8236f53086191143861982a32609053f1044dc6955bfd
                """),
        TestSigningKey(
            name: "rsa2048-7",
            n: """
                980bece6739be90bd37212ee29c3ae8e3c8a86462d2bd55225e992c5ee49264bde0b51df376d209e3158f7d4ed52bae5
                504fa9ba68a1b4b1ad8fec4810b77d1c29a8824efe5021e91ee1201120688f600250656b00d0df431bfcf875a5a31062
                5424ce230d3aced03c59fc18ad0ae3bdfd7894656ff9643a69e7efe559f848887df94ca258999a274cae9cfaf42ac805
                4e2b0928def1c58fbfc9c1ea3761f6da7fca2ee9857d5a19b2c8a0efad2986fdb36ce3ceb819973baeb5733401e02adc
                bfc366f5d460e4b764f343b90b2413ca0c0f3d7ccb88a5896da1f6c8bdb91161067fb9e7630ad37575302c30926e459e
                baae089c7e22ccb5804040416b2a19c1
                """,
            e: "010001",
            d: """
                46b15708b3734c5770fa88e06533d3e4f733557f7485b3ab7bde3fe68bbcfb982aa75422c49b96311b8e48e33046e91a
                1e83eb83fdd443c84f83620871f42742b7b7283a7b3f02178cef5a6e09cedcc8524b1cb7c5d032fdf9f55d748c8c66b8
                9a2b54ec7bbc7e42b35f07cbc396a5b5e95880020e54ba82d2dad3df35f3538e7d77637075a209e000c8f98f785bd1fc
                34d0ff673342ce9e80cadac1a52bbe75e37492b215a3af385a58b0a1c3323b141b5777aea6ff9300c62db420e377cccc
                27db1ec094228a450e19be75cf6d4d5db9d75ee8fc2ea7a9e1a926c8a9a89807e57637bca1b5137c7d19429baa23aa30
                db10654eb5e153fb51eb81b3dfa2f1
                """,
            p: """
                c7eef78d3db9228a4ebc1543643c5e74e29451e3433e4a9e36605e1631dd2ec5a448ce7ac77c44fefad08bf0826302f9
                0089399c3797a3978cf346b53b901b5ded4889def08243f286e6bcf10fc58a85b2dcd87a2e214f76464a53afa7bf2ce6
                bf3e88f49ca8b83ac1576683c3d6896e243096f5832e14d7a1b866b6cf4976f1
                """,
            q: """
                c2af346dabe61913c0846870cd099d09dcdfa739d06d1f5ef1790f1324c3e9318ce51b0d72106780395a40dd8c5a42fb
                1eb707af78265d1a62c64fdc4505341f12d3ae675dc8e7384e2627495f696ea78ccfa28dd2a5e33e6ad5fb5c5026da41
                e14322945977748cd97ea251947843492e7e4928ee7447b574475a891e75efd1
                """,
            dp: """
                9ef34e5e3d0f1df5c568e4a2c262f85986f59230d2fa080ac68250eae653c9669a18c4077ae74257510251ef314a1447
                f074289818de76d1fade427dbd4ff161f84eae45cf025190d44d4733836d72969ebfd35f37a385f02b2bd66295437928
                2e2d4266eed1783e460dfd538e73d6a8f91ea435a648118be9679849887d0891
                """,
            dq: """
                9c7c44021b781a941bdcd22e4940feef5c909154114a853ac591ef220e1d4325c700a8dc07e153b067693a565a687b0a
                6ac7e7ef8cfe193c0a45290ffe928e30a3eb6e763b962ef4bd2c41cbe25b56cc6a8cc33688293b1d82b67912dc823e51
                5205aa97dfc9faeef42babc1333befa9b52b6116fb848fd7349dde11f5600ae1
                """,
            qinv: """
                1b2525f5d27064a1439422937fda88e01013413da980edee15b705d9b85178090798c7b5268c6e389d38f6415d8422d9
                e237998b61d3d96c99a4ad24f5e6239d763bb29e769a020537dbd64c6b23901a0079145e4c0c4ef74266363b49e20211
                8e0ecdfaa9f631ff70b653092ecaae611345b738447041915f15b4e381551182
                """),
        TestSigningKey(
            name: "rsa2048-8",
            n: """
                aca3c6f7682620b349adcbdef7de644cd3bb043ae032a63a8870082af8a38485060ae447c451d8fff2901e9a601465c7
                d1b339de1a8b1a4ca310a3dfcff28df3cf1cf0da413b600f272322cb019f9a04b22ac628ad0d3396bac602e6a3322be4
                0dbcfffa5adb35c0ea22e840b047821bbc56d6c1dd797ec48e3c761c8edef462bebd512256e86713e5423a708e469c13
                21f40eee50d49f7499ced497dae5b961112d6f5aaee4b62854da9089bc17861085e4544277c702cbe9a553f33cd3a419
                ee163ea6e2b32200286501f3bc4900ef27f15b0468d718a76994f83e1ad04f4992450b83d663753a4e508fd967d54c34
                8aa5ec828338bf7b104a6e6f86eadd8f
                """,
            e: "010001",
            d: """
                5584e1cc6ff6a72f3919d34a75cde030a097dd4e0efe7812b9c0898343dcb88a2ec69973a5a007d72e00cf7018953220
                0c54749f7dd597670c45f36facb292380aca62d3330a27190a81a0bc20673fe400a028be408f3015841b0f97d192ca64
                339c02cfb14f32af082cd79127e19c6581e42089335d7a7b029c97c3a8d0700d63d8b2a12ac3629d4b1fa6cbac02d1ff
                81a0b323c0e571a267bfec6848b89453df49f96796a27a15965edccadb44451a7587dedbff321bae08d0939fa30d7d41
                ccd1351e6a2c4cea91bc72cb5069af6771d136e0d735b50f872b8582beb8ecfa8776ae78f6cf75fb9d0b5c7094010d0d
                6f36af660d521f351ba361881df28081
                """,
            p: """
                d996452fe4d0ef96e09abc8cf846bb859772d241e9b130f7a0224f377a308b439547d4b96f40bf4acf651d09f3f09641
                92400a2d8576258347342b63bddc2f0ab6c19a92a3252b4395f1cf710a09fdbbfa4ea6ba4e7484951f1b6c393c3177ad
                e827f727533d0b20596f0e3a202a02127321269a8565c72cee691f5d586e6b81
                """,
            q: """
                cb1e23e074a66db579098e927f1da216c7a8d4035631dca47688eba676a16f32e6718b0d2f7d8a5205c8d2db72614f7a
                55bd3a6f1bfd77cab3db3a2eda77283a76b9f1675901e26aa6e7a9998b00f7730ea7ee4a8532bf1de280ec2542f56978
                9c1c7503644558dbecbe43161f91f3f1c262acd51081ec13ad96979216cf110f
                """,
            dp: """
                0681dfffd6b008fa522d4e8648c694c5220a650f6395d10916d8efd590e9f2c04aaea3460875bf42d58108a54b8e5e70
                0797b2b639cf96bf9e598912aa92f33536d203756f3ba557981c6b3fce350e4998ead141b126faf01ac60f2e870653b5
                f7c37a38cadc8080af2c0b18e1ed5fb27d8ef84096ccbc703391214701660c01
                """,
            dq: """
                3f02288af664b25fbb1e55d5e80cdf3d45ce7f865174c2475a65fb03f684f9a3c68cae5ff6bd70ed24d23966cdc2960f
                130dd254a950259b01d41de66eeacbd5e702a37a35c839de6fcc2976720268c08e6955a8544d7bafdf95b2ab946be0be
                035f688516d3d44ed4cfe8abb23b6a7b329bbd9592bb5aea77cce153f63361cd
                """,
            qinv: """
                38f25f0b5458fc3ee313084d51a0cffa8608a2b4a4e094a01f7e55ecbe0d4f4c8b4d04f049f78a8eb08ec9805ecb4e50
                a97d26e2ce6655c21b61ba3924d2de92f554f44dfaf0b35daf16cd5960498bc3f53886f70cfc9f64396e5cf5a1a50682
                81d5486a15440f5bae02db0f554421f078184efd8388ea18daaca0954ac04992
                """),
    ]

    /// Two RSA-1024 keys with e = 65537.
    public static let rsa1024: [TestSigningKey] = [
        TestSigningKey(
            name: "rsa1024-1",
            n: """
                d01dda7a42e0ccbeab01db59b34ddbce135815363cb359d069ad93fff5bb408064ed2d7fc334a960967481af8b3bed9c
                471e609421b7565495f69fc9155e7f99ac36bddbe46b172efb1ef222cc71fbd7fd5610306c248643b8f9e44e6bba554d
                e2b142fb52477c844d2daca96086585307252739f2464e0f2e96703ced30b787
                """,
            e: "010001",
            d: """
                736b3b117729a9234d3fb860e4fa171f10c756ec3f79d023af981e6e63dfb783fd753438991009a7918987aacd732cf1
                f0d73e04a9363e60a6d2a207291cc1727e6c695546bff58b5f0071734f4f4533b72083899c309bc6969185ecee9fc26d
                16d4bd04413a3608cd0266575c929e72cb893ca4dedd5f7433126809557c25a1
                """,
            p: """
                ea4efb03573731c82d6bf329d08486d551ab7b4f7bdd23fb6bcd61410cde45fa5b5d8c89c34b1d4cbbd91a473625774a
                c000389aaf117ffe3872dc88ce2307ff
                """,
            q: """
                e3622298a732c45f6771b6e45b09ab5d54c3576e5818e5c9e5dc3a432a0eaa9d112e94b2d96ad8989e5dc66c017c0800
                29fbfafd567d4b2570a5dbb7a1de1079
                """,
            dp: """
                96c3551e342b2e9c0825f2a3902905fd127ccd6e3a5bf3801e405b7898c818acdbc718dbb7ce883ecc8c082d93f88d86
                8a7e59eda60213a2473e190ae9e07e8f
                """,
            dq: """
                0a56d803e0f669ff7c90ab244f0f6d7f5cef54f66b83164fcbe7ebae4a274892c3c93e71b3792c48244b574e69f2ddda
                440e752737db92a32d301d818816b4e1
                """,
            qinv: """
                7b8301317283dec87e7d9db11b30cdc0cd4571c7e75e78165685ea4589882196bc6b055e8ca274bc1d0dfa33b2e3a24f
                e9f90eca2b9dbb95c5a375ef7cf4323b
                """),
        TestSigningKey(
            name: "rsa1024-2",
            n: """
                bc5684764274a1f47345a83689e14c30f6eb72f63adf32acd72cae6dd9140beac05fee5090fb939420a794f613779645
                66c074800c8524edfb4f195dd4777975d2c5044a0035bf20bd16bc07a43564f7abafe09c01029ae610e506a9570dd000
                6211b90e26ea10349a24d8df3ba3a216b32bc34cabf76e54f4a902cc5f47cba3
                """,
            e: "010001",
            d: """
                1957ff1d36d62111170df193dd3bff17bbb27556e31733e7845113ebde414f5538abf012d15fb93d3ea3ae6ceab3b5fa
                02d8b514a21aac9c85abe03afb2354a9a623beb07b6553b530ec30e466e1f85f7c00fc8f9351223721b26dd151c3b654
                336c77b21c8600a4e228f9bbcf48a723472072f447876f8bd510f2cd2d28ecd9
                """,
            p: """
                e1c7d4fd35d4492a85ee48ed30a442fb778fddd70f620785c9721cc0e4155ced8b5c0036fb61b34aa446e05f8c94d098
                d4cc05bc6cb2e7acc4711e8afa73313f
                """,
            q: """
                d58bbf54dba10794d62272371bdca0b5912598ccc8f7963dffd1e87e30598bd65270146fd2bb63c493e69fcb726efa04
                60b7fbe51c96534c5ab1685bfc1f689d
                """,
            dp: """
                15857dd8f1139e31ce786b3d28c0cf9db6c4e0e98a0ed716baa004fba202234c85572cb210fe3c1fe64ed73e64611f0d
                22639c3c5cc424ef43fe6061f1039ff3
                """,
            dq: """
                8e10251e3fea75cfb7513d289a598174a8f6191c0b8a62a226612fc95b43073b72a66b8224f0532400bcc98ba03a620b
                ad885884882b1d894b4080cbc903e025
                """,
            qinv: """
                66e92a08b44b235befa5323adf9e3b1202c359c9c2b6cd28087bd56f4bea1aef192d990974faf533aaf812cf47a22276
                1fc815958fbf77e7abcb319a64d391d6
                """),
    ]

    /// One RSA-3072 key with e = 65537.
    public static let rsa3072: TestSigningKey =
        TestSigningKey(
            name: "rsa3072-1",
            n: """
                f310f1c50d05fd166834238b7a42dfd2781b0964dea50db2c248c5adef187b46c8bc70931321b223be04899763916c94
                5601b1f32010dd818c0f10d633e8f4d1ad7c89d49d43db214827e7847ea87c0d0fa7d147397e6c05b1ade05058dde88b
                da40d6e68813023323af298836c163e0b6e182a9e498391f52225320b5c1c455707108c43f15da4be08a6d7c80c752d4
                1daa454d26b5b8b5ea1c9f59bc84ec3c37a4409e1478a8ca7a64817002910965234596e4348b81e6acde3751b7c132bb
                07f4db045a3853ccc0361b1f40a3392ea7633ae674b2f93f4690aae6b4ad521300c0b45ed2767b8d7c51d9a9003629d2
                d95f41309fba69f7f83f90b5ecdad31e7ca0aee06931bd7128047f8976a8f6318b1949b061e816d50e1f695fa707d543
                d4374542d2eb1556899c628d313ccfdaa6c39f7bb2a6e28879c279927e1c2c6f8059f99509a3241a98c5aa0bfde02a2a
                125e4741bbe0cc3ecdbc262b66ab74d619cf04ca179a39b95dd073a5310fa9ca1215bc497b889cb19158a76e28dcea9f
                """,
            e: "010001",
            d: """
                6ee74fd0ff88b87a155098d9468f25cdc3e45e2c6a93f7c494f61c5028d44c47374717bc5b91d7d48c1a48e74cd4692c
                e373418cf3980e615214fbb3289b45bd3801a767dddbbcab9a5f2eb91b0b6812938e9823fddd2b8f8b8b10dac8397425
                ff8eef1edf7e80d5f195b6070328c9181a899993480c969fae5b9fff403f29846c59fecc801649f4adfeab471001224f
                4b3bca041241ff05edcc627ed0cffb73dc5572f04dd9e1f604d33fe5ea1de02207ee74132ad06e946052c1fde4b05fa2
                e823ba859b4c2764b29879c57dbbc1ade6bc59b380aa15de6f03b9a314b1ebd74c92535b4ebf555e70221b1461dfbd3c
                466ec1f689378899c64a6a42f4579030276be49a637a2c352fc33b2716f4eb8f8e29732f2cc59da1466bf146aaf027ab
                eda43be909d6ccedc333d1e851aabd250a30e4dc3dc4517b576036077588794a5c5837f71fa5011bd76fcf8183c19dae
                f9b559f94faed7e3edd7d3228e66eba315d17e6ed1ef668aea6d829fefa637dd77bebd2542e3517273726ba4890fffd1
                """,
            p: """
                ff483dabaeb808bd84a43a7da241fec8a85f1c81145424405b58863f988b21c08b9e5ede5c46a42d258b0c9e89f9ad49
                8119df6679f90c3e49161d4ce1c300e458a8c540a822a5d1bace810fc1afa7950aaa35782d41b68d81bedb3d3812553a
                89e2f124fd4b4a3d56c4fd4278e97fce21ee08d26be838a3541f0fa472664739caa3dbaff1ea71a96a743349d0aa617a
                eaf59d228f8c31670a20dc651d23553af1bf5ccdefe4fff34b4a25764ae8060bb8c3144b7f598310bad71cfcdc298571
                """,
            q: """
                f3bfe8fc504f4bcaf1d9255d67409c6127d218afdd2b81f19ebca26463d4358ae28823bd2afe372faa1c495b87217424
                64fd03f2c293f8de33e8db3fed6fe2a1f93b0fd3672516ad8e9abac8ac922cc9525cab6663a2a4eeadc6d339f410a9eb
                c932205619bcf6947b7fcd1ed271edd309519d1287c88b9e014986d7fdde226174c7538a5b3656a2328bcf05707a6fb5
                121488510fdd025731e5d6c3d6a30d60031a1a59cd6dba349b1018c65e8715642d76593f2184bd207f9eb41f797f290f
                """,
            dp: """
                a77ac99afd01981a5e0f30a083f730248cf1f94d65fcdddbab1224e14c3edb61eb37779e028405e9e89b9527ddf5840e
                9938542c7311454b07c00e71061c5d557225276407ead347097bb98890d5a0e8531ae0017c0f84a8c9da611384d9e238
                8985ee170a667eca4746edb0d28abe628a3814699889bdbec9cda701885c39965cafabcd7eb504e4d5066f2f9a4a6db1
                aabc80decfb67622d7ae3f69c6f80b4ea4939b5b306bd8cfd1314fea8fb23165374e24de732a52a6832de5c2aede3ec1
                """,
            dq: """
                ab49830a3bcd5d6fa2007c3764e58c7ee1a2cc625943c7aee96399a27e5c93bba37113dc4d2813d3d4f0c7c41ff3ac50
                1eff8614c41383e1720d0275abfee1fdfccc3a54ceb8cb74ef2f606ec086801e815849c24be5f18d206505ee45caa7fd
                df86f01e513beef36ccde470f265c94071ddfe49154e227ec85cc8fb63950408042e465085c46ba0d37057ec749c357f
                c2d2d6f04ffb79379902f0a6f25fe6783ff5c9eaad679c60774f1a79dbd7857abe4fda6b78bc74c32fab70dc655eac95
                """,
            qinv: """
                d541581a9da3a8445a060b3880e87af3047137452c4854784e0d6bb705b847c8feef1f46bae9ab18e8207400c0f8a43a
                6f629c090cc37860378517c165f9d236d061d6e31312eb4559942f38fb0b0c8efb47f1847fab7b4f9cb70953e0407f33
                254fe2a82ae3b6601f7acf07281bf9318b085d9048f7b596507d302794dbfc03b069c52cf753db530e989bbe1ae13c48
                f7afdd93b46f565c809f9480142d872f4880bb3a0a7ca22394d42c92640fe4a8832dd4c2cad03f326b9f122f249917c2
                """)

    /// One RSA-4096 key with e = 65537.
    public static let rsa4096: TestSigningKey =
        TestSigningKey(
            name: "rsa4096-1",
            n: """
                c01abc26a5005f8232989e4b880036343a4772b84a693771da5f0bd115309394b9a197a7f509d20f537c7a015e2e0a1c
                f9d378eabb239dbb20100a7ebdc41218f8807efae993e338a2c8d33bab2701bb9f9f3b5dfb11b291538fb20cb42f1c0b
                3c9fb7dc2685372f7456f7402a6fa57b0e1bfa5680fc36168a203fd43a062b43e18a9351f35c36f8723646dfdd87389f
                c795fb2d61645a62e23cd7d9bfb5b32773052ae6f0e5758ed75eb33683f9dbc123f6b16d7204394cdc5ca3348d6a131a
                200aa33f4fb21df12393f6b2ae193400602830a0ac3c7ea77f3f394b2423174749d459d0f3461e460fc9d3552e38275d
                762d582917dc58e5045d2a7a051af5f476676e656d5e1ee821953c82ddd3b45ca9fe1df9a5c3fa2d9e9186d1f4d321f8
                7c745207248dad09d073e92e1ce9a420c46cc7f442606fb7f013529f0c4e2019b3741307b68b4739eebdcceb0be9c23c
                91dd8ef518f099949de629b178f013a6d33092bf91d89064d06dfdc6556655868e87bc93a255b037f71d2b8de48c9926
                da50f7ce2b73406fcced395eaa2eddc839cd0791ae0374cf1283aea77b860e9f494064408ee5fd74872642f9bd089eb8
                e82af74dc8da52ae387aa93b6f0935dfad3da47861d594e08552f345df6bd821b58875ecfe163007d7cd827f2072ed02
                240dc180406d2c105e9ffef68e979bf6ee3622d035c14fef9c63f1eef6b6c039
                """,
            e: "010001",
            d: """
                012f790c97aa91ac4f971e579d7a7b85d026963839bf534d58ceb582355faec82015759bdea37af5721606790bdad160
                533b569798e433f4e3bd02ef917361b58a925d163bcaed9546788cf3253a7ba4812c3df5206ceac8424c29f4b19cf3ce
                eef16bb49da93c9eb14358746a7e9f610bc47e438fe409351390f63689f81ff163e028ca11ec21010b500c9914e320cf
                e8444e3fe8b0b2426cc9242a2ebdc137590545b9eb452337fdda12aadf5ec8981fc51b31af73d963011e1ce4b60b059c
                a793768fed5ee397e96e0ae64334451c4bd0f101e0d0e115895a661bb1adfa16b6c7806eb812ed4765e6b5d98f4c3493
                fb51757b3ac4e193378c6d4c17a1790b3b27bf3dafe63bae987f20cda533e282660ba7160eb7e96cfbdc16a4dade5f8f
                dfd4e3047e9d8c6cd5668b8f4a4b5a56dc93f53a493a5660b27bc9959b7d3d9222063f6f015ae510788d08642fd986c6
                7aa6a27cad79cdebe130f8dd387cf5399f14a71a29d520f3f9cb8447190add3532615e5ae71c879be06fa5e31c1f9e8f
                8242b6af6e3ee42694ea24626cf10886c7208f75c1252dc987374884c66e36259144e9c80b240e9a37d69d4e52374589
                265c0c40b84a187e2abcdb8554025da8c21e0d3d7af909e06c71370b7f6c2af1531c7c0bf712154f8af647e23a6d27a7
                dc72875d7a9e9845e7766df6d0f1a18ea94efc70eeda24cb4eabc9c49cf693bd
                """,
            p: """
                ea67626be9e1ad420efd602af83e31f443e3acacd8530af4ffc6ca7d41483f1f66ee2afc65dddbc8c051e7fd0b3392a4
                31041dbac9d63402c51d9e56561a50a5d5bb5972b88437349e74559ead7343452e80fe8b005c9ab8d05b27a335909b58
                b45761daa652401b1b9233221855abeed0e57d6cd2ba46e4be13ec838f968ee6f6f1a6d709f5b4c534a122fce1888af0
                81eb278886eb2b86a4aa730a37e986df197e6aae475f44b31ab478e077963c8442be56abc8ad8f08b91a389a78d05dd2
                9c8cf0aa443e274ac36243a30c7a99bbfd14cff5da0b15a3c5a2c6b09dae100e149665d5a6887d5505c7ff9b0ca46b53
                c35ed7919c9fab7846faeb20133da1b5
                """,
            q: """
                d1cdaec0b7b50c0029df76fe7af4972ba5d8bcb4caedb45d4ffd3746b6e12d7df1f6807a1f9016a4b6d97f5156ef6ded
                b9df7a399abff8e735f11267c9c384bb6385444319346d360904a9a44f73b9fdb651c4b42e88aa9abe1347fca1e51c77
                eaa9997513a4336b77e220de96df06144853c339ed8f3ea7f7077586ec36040c9f3c52ee6afac9fb7930d63f2f10b08a
                d0d49459957ded5d87064ab78372cee4b0cc70b5d477379b017757ab891ec5be56e94fe9a991b580520c59830874df91
                8efd990a4668a0b97aa3850971ef2a915d353fdf1e1acade47c4999e4facb43833b9194d07e288f67d665da03f5be656
                576d79d26e75cb015a18efc408a5c6f5
                """,
            dp: """
                5cf7de3060d5d24af5f90690645efe9f1be20c158dc2fa008c05c34004896c07bf624d08483ac3360f192d42ce9388e0
                b854229a77fd0e29df164d3b7ef0f6f59f1cac7074c073c8d9e3d8259433b8059359341bdb6bdf2dd7ed9f7dfafbbcb1
                64ed97710a306b1e9543da25f6b2dbfb5f3cf60f18512b57041090e8e92554ce443939ebe6165eb92c939075edd9a309
                9aedb28352c7a93ec0c69dd3fab3137c1ef765c673a6547018f26552d9fb6b4b25d1aa3c7dde60719c40cb1c71386b4d
                e22b803477d692ecf32b611a2513e72f89441ceb2cace2cb4ed2adad550cb96f6c38ee70db991ce480e37efc76fa2b5b
                508ca8412776a8a28ebc6c4f0f728d55
                """,
            dq: """
                2f0891389af6776e41f4dad449f4333f91ba78f37edab328881a181e3e3954dd7b34ebb0750af44890c549898e97b669
                28d634ac5d48d41fe133de106e66ea86a7d4e46cb665ce65e2b7ace02cffa09e8414e8a80c168f48897c01135da7e32d
                eee97e818499b6fd4caee0f7859311e5d221150f13769d71422be5e90d633e9d25c57c41feb1a23e41f8f4cecd5a4c79
                923f55d28f74df95ac03791492df560a66a82e4c550934ea06f61e2d525c17b088035deae01cce37aa2d2294017d51f1
                6bc0e6622b4ea1597368dd1634f88cee719ad26ace70eb31d19cfd6344314f659a12d0dd37fb4d011533b1a18f12a71c
                8c14face75fcea39af5d0fc33ebd0b51
                """,
            qinv: """
                63d8af605b033fe9bcdd3c8fc52fb97444808fe7932407dd62c4003f01101bf9918ef9f7c4af7e54bc06e4f945a5ad61
                ecef054da74dd46f17810df76ce946ef031ec18dd15eedfb2d6510a663e135f3b3501558916a7a6f7d63cea6c065b617
                a24b6a423568e34f1ae0c7f88dda0221f1b589f236812e5593042dc05d5a2e840bda4d15ca07a133a751ae024a989dbb
                d433758c4ce61eae8d17c49373b918b2c6b57bb5fc83c7518b180c9083f0fd9d9dcbffe104e9491639800d02f340256d
                ba6169ad37f830c25fee83990102e8227d97fec5c468ba8d5438f3e825c0353ad666a8c88589d485725b6732b704d24d
                dae6a260d8d54d88d5c2b51942001886
                """)

    /// One RSA-2048 key with e = 3.
    public static let rsa2048e3: TestSigningKey =
        TestSigningKey(
            name: "rsa2048e3-1",
            n: """
                a7c89825d3fc9d3ef8e4118b4fbf5681596d756bf62c2758b92871366f66532a2913388715c291704dddf467bf27584a
                954c5cff34c83ad3bc0ed0110a9e65b5ce2e532dcee19b6c561bb7f2e328b40c5102be9355d8e3ec06c8045eeafb20ef
                7f62729df5b764b64527e382e27bfdf14542993a2425a1cf50ca618032bb57f05467c9b44f94c1512218a4320805c194
                d6d9f7e3319a1a03b114f6f113b89ebca7194f9d503f0cb87772a87d08d04b9e09c2920253757cfae140053af511d8c2
                5ef1262778e175af6b577202510619c29601403593bee3d33a85df49a5a111373705cea3cfcb434ea6e1b3cd5385af70
                d6e4a72c7fa7f69e6f1cb86bc8a0545f
                """,
            e: "03",
            d: """
                6fdb101937fdbe29fb42b65cdfd4e4563b9e4e47f972c4e5d0c5a0cef4eee21c1b6225af63d70ba033e94d9a7f6f9031
                b8dd9354cddad1e27d5f3560b1beee79341ee21e89ebbcf2e4127aa1ecc5cd5d8b5729b78e9097f2af3002e9f1fcc09f
                aa41a1bea3cf9879836fed01ec52a94b8381bb7c1819168a35dc410021d23a9f23ccbb000dcf0e54631ff634c4bb372f
                5394f11be90e6eb4954e990b751aa2c542cfd066c04517e58fb357e42fdcf50b92107ae217390643e6af4ba322ab01e8
                bb160cf8c953a6a2edf1346ac3bded0902a273d174c1c14638749f503d8a2e3171ca8b7f094ffd66839394e2b0bd0e28
                d1c87a4b0a1b8a1cbcdd2ac1c568294b
                """,
            p: """
                d5e1f225439d0c9209aa20d00045a020d4ec62e9b6ed419cf14e5b778ef87248cb581c8d45eff78f64e396f24c74c766
                33d8e0287ad121dfbda10af1e443c32d7d8e72d0086c172161d9d4b0c66887ce6a43727185ab452f614fd23fca9156ec
                f793bac2541d7f263d7bbc55f685774bb1212f64609b1b38af6ecc5e37ec66a9
                """,
            q: """
                c8d2bf0ef7411f4083be9212e0a74ead048e2b4f9d173257dfd0b5e85518384bf7897a75e9e77150bb020db4749014a6
                7ad0f986b5ced1b5499808d45ccd92b7c8c19fe24277e499a493ceb16500ae66a7ca2009def0fcba84871e117ec07500
                14c242a2edb5c80ea408982353e4a2e7eb16c0578fe38c3aa4622beae897afc7
                """,
            dp: """
                8e96a16e2d135db6b11c15e0002e6ac08df2ec9bcf48d668a0dee7a509faf6db323abdb383f54fb4eded0f4c32f884ee
                cd3b401afc8b6bea7e6b5ca142d7d773a909a1e0059d64c0ebe68dcb2ef05a899c2cf6f6591cd8ca40dfe17fdc60e49d
                fa627c818d68ff6ed3a7d2e3f9ae4f87cb6b74ed95bcbcd074f4883ecff2ef1b
                """,
            dq: """
                85e1d4b4a4d614d5ad29b6b7406f89c8adb41cdfbe0f76e53fe079458e102587fa5ba6f9469a4b8b2756b3cda30ab86e
                fc8b510479348bce311005e2e8890c7a85d66a96d6fa98666db7df20ee0074446fdc155be9f5fdd1adaf6960ff2af8aa
                b88181c1f3ce855f1805bac237edc1eff20f2ae50a97b2d1c2ec1d4745ba752f
                """,
            qinv: """
                9eeaf3a7b3c255cad0cce72a553aa92c78937c1cede55c5e8a122de6ea93a6092244f2c6bb55f45ac7a2d97ce4c0a761
                7616300d1c7fb0d7f5cfc1f2913cc1038b72d37e321990adaefdeb6614ecbc54c73eff55bca9ef41e983aee72c476a61
                7b5032edf465f208a46c7b5e083a9ca168cf56d36312313fdd3ddc6f88ba2beb
                """)
}

/// Hex digits to bytes, ignoring white space (the constants above span lines). Traps on anything else.
func hexBytes(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var high: UInt8? = nil
    for unit in text.utf8 {
        let nibble: UInt8
        switch unit {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): nibble = unit - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): nibble = unit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): nibble = unit - UInt8(ascii: "A") + 10
        case UInt8(ascii: " "), UInt8(ascii: "\n"): continue
        default: preconditionFailure("not a hex digit in a test key")
        }
        if let pending = high {
            bytes.append(pending << 4 | nibble)
            high = nil
        } else {
            high = nibble
        }
    }
    precondition(high == nil, "odd number of hex digits in a test key")
    return bytes
}
