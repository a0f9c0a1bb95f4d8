import CryptoPrimitives
import TestHelpers
import Testing

/// Known answers at the padding boundaries, FIPS 180's million-'a' messages and streaming.
@Suite struct SHAKnownAnswerTests {
    /// `n` bytes of the pattern `i % 251`.
    static func pattern(_ n: Int) -> [UInt8] { (0 ..< n).map { UInt8($0 % 251) } }

    /// Every algorithm with its one-shot and streaming entry points.
    struct Algorithm: Sendable, CustomStringConvertible {
        let description: String
        let oneShot: @Sendable ([UInt8]) -> Digest
        let streaming: @Sendable ([[UInt8]]) -> Digest

        init<H: HashFunction>(_ name: String, _: H.Type) {
            description = name
            oneShot = { H.hash($0) }
            streaming = { chunks in
                var hasher = H()
                for chunk in chunks { hasher.update(chunk) }
                return hasher.finalize()
            }
        }
    }

    static let algorithms: [Algorithm] = [
        Algorithm("SHA-1", SHA1.self), Algorithm("SHA-224", SHA224.self), Algorithm("SHA-256", SHA256.self),
        Algorithm("SHA-384", SHA384.self), Algorithm("SHA-512", SHA512.self),
        Algorithm("SHA-512/224", SHA512_224.self), Algorithm("SHA-512/256", SHA512_256.self),
    ]

    /// Made with OpenSSL 3.0.19, independently of this code:
    /// `python3 -c "import sys; sys.stdout.buffer.write(bytes(i % 251 for i in range(N)))" | openssl dgst -ALG -r`
    /// for ALG in sha1, sha224, sha256 (N = 0, 55, 56, 63, 64, 65: around the 64-byte block and its
    /// 8-byte length field) and sha384, sha512, sha512-224, sha512-256 (N = 0, 111, 112, 127, 128,
    /// 129: around the 128-byte block and its 16-byte length field).
    static let boundaryAnswers: [String: [Int: String]] = [
        "SHA-1": [
            0: "da39a3ee5e6b4b0d3255bfef95601890afd80709",
            55: "8ae2d46729cfe68ff927af5eec9c7d1b66d65ac2",
            56: "636e2ec698dac903498e648bd2f3af641d3c88cb",
            63: "6d942da0c4392b123528f2905c713a3ce28364bd",
            64: "c6138d514ffa2135bfce0ed0b8fac65669917ec7",
            65: "69bd728ad6e13cd76ff19751fde427b00e395746",
        ],
        "SHA-224": [
            0: "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f",
            55: "8991dfba74284e04dc7581c7c3e4068ff6cb7a63733361429834bb56",
            56: "2b2cd637c16ad7290bb067ad7d8fd04e204fa43a84366afc7130f4ef",
            63: "049e8dd7eab3378ce9f823bfb569e5b270235d4b7f9623606971998f",
            64: "c37b88a3522dbf7ac30d1c68ea397ac11d4773571aed01ddab73531e",
            65: "114b5fd665736a96585c5d5837d35250aed73c725252cbf7f8b121f6",
        ],
        "SHA-256": [
            0: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            55: "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59",
            56: "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562",
            63: "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488",
            64: "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108",
            65: "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781",
        ],
        "SHA-384": [
            0: "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b",
            111: "f5f9fe110d809d34029de262a01b208356caec6e054c7f926b2591f6c9780579d4b59f5578c6f531a84f158a33660cef",
            112: "33ba080ec0ccb378e4e95fed3b26c23aa1a280476e007519ee47f60cd9c5c8a65d627259a9aa2fd33ca06d3c14ee5548",
            127: "d5fcfe2fcf6b3ef375ede37c8123d9b78065fecc1d55197e2f7721e6e9a93d0ba4d7fd15f9b96dea2744df24141ba2ef",
            128: "ca2385773319124534111a36d0581fc3f00815e907034b90cff9c3a861e126a741d5dfcff65a417b6d7296863ac0ec17",
            129: "ef49ae5b9ad51433d00323528d81ea8d2e4d2b507dbd9f1cb84f952b66249a788b1c89fcdb77a0db9f1feb901d47fc73",
        ],
        "SHA-512": [
            0: "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
            111: "a1a111449b198d9b1f538bad7f3fc1022b3a5b1a5e90a0bc860de8512746cbc31599e6c834de3a3235327af0b51ff57bf7acf1974a73014d9c3953812edc7c8d",
            112: "c5fbd731d19d2ae1180f001be72c2c1aaba1d7b094b3748880e24593b8e117a750e11c1bd867cc2f96dace8c8b74abd2d5c4f236be444e77d30d1916174070b9",
            127: "eab89674feaa34e27aebeeff3c0a4d70070bb872d5e9f186cf1dbbdee517b6e35724d629ff025a5b07185e911ada7e3c8acf830aa0e4f71777bd2d44f504f7f0",
            128: "1dffd5e3adb71d45d2245939665521ae001a317a03720a45732ba1900ca3b8351fc5c9b4ca513eba6f80bc7b1d1fdad4abd13491cb824d61b08d8c0e1561b3f7",
            129: "1d9da57fbbdab09afb3506ab2d223d06109d65c1c8ad197f50138f714bc4c3f2fe5787922639c680acad1c651f955990425954ce2cba0c5cc83f2667d878eb0f",
        ],
        "SHA-512/224": [
            0: "6ed0dd02806fa89e25de060c19d3ac86cabb87d6a0ddd05c333b84f4",
            111: "f8810ee322210d0f4cbd7a4e92e7d7e72b63d2777dcb531e13ddd690",
            112: "8099918892ebbd31215c9bb5e4e53c0b52927b000ced0720d2c65a22",
            127: "29d2c4166a36e07b2dcd3a7c988dcb14776dc187040f6a733162efb7",
            128: "49a64b72a88a3c93432b6e4c59a1b4908403f70e46e13bf7494fbe88",
            129: "aa05964c59a40bb5140f3f1b9ca03c3eee0a1044bbd3fe84e5936877",
        ],
        "SHA-512/256": [
            0: "c672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a",
            111: "bd209f60b0d04102a09175297fd255367e54b5a5605b928635c606306914363f",
            112: "2cafeb0882cc405167e9a255b8581a66dc683212474902dd453dbca20a94e61a",
            127: "c26bc7e9315e62ab0dc6aeb577724d07c09b0c6fdfc0a9f08d8548047c032248",
            128: "2ff11194b2aec1f943cb5f130ba647c151334068083194d7281a55d607ae255f",
            129: "c4a3bbf841ed2a289e5109fb392229c80db61c72fd92079b5a4f0441f095a111",
        ],
    ]

    /// FIPS 180 examples for one million repetitions of 'a' (SHA-1 … SHA-512); SHA-512/t from
    /// `openssl dgst -sha512-224` / `-sha512-256` on the same input.
    static let millionAAnswers: [String: String] = [
        "SHA-1": "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
        "SHA-224": "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67",
        "SHA-256": "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
        "SHA-384": "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985",
        "SHA-512": "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b",
        "SHA-512/224": "37ab331d76f0d36de422bd0edeb22a28accd487b7a8453ae965dd287",
        "SHA-512/256": "9a59a052930187a97038cae692f30708aa6491923ef5194394dc68d56c74fb21",
    ]

    @Test(arguments: algorithms)
    func paddingBoundaries(_ algorithm: Algorithm) throws {
        let answers = try #require(Self.boundaryAnswers[algorithm.description])
        for (length, expected) in answers.sorted(by: { $0.key < $1.key }) {
            let message = Self.pattern(length)
            #expect(algorithm.oneShot(message).description == expected, "\(algorithm) of \(length) bytes")
            // Fed one byte at a time: every buffering path, the same answer.
            #expect(algorithm.streaming(message.map { [$0] }).description == expected, "\(algorithm) of \(length) single bytes")
        }
    }

    @Test(arguments: algorithms)
    func millionA(_ algorithm: Algorithm) throws {
        let expected = try #require(Self.millionAAnswers[algorithm.description])
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(algorithm.oneShot(message).description == expected)
        // 1,000 chunks of 1,000 bytes, as FIPS 180 phrases the test.
        #expect(algorithm.streaming(Array(repeating: Array(message[0 ..< 1000]), count: 1000)).description == expected)
    }

    @Test(arguments: algorithms)
    func streamingInOddChunksMatchesOneShot(_ algorithm: Algorithm) {
        let message = Self.pattern(3 * 1024 + 17)
        let expected = algorithm.oneShot(message)
        for chunkSize in [1, 3, 7, 55, 63, 64, 65, 111, 127, 128, 129, 1000] {
            let chunks = stride(from: 0, to: message.count, by: chunkSize).map { Array(message[$0 ..< min($0 + chunkSize, message.count)]) }
            #expect(algorithm.streaming(chunks) == expected, "\(algorithm) in chunks of \(chunkSize)")
        }
        // Empty updates change nothing.
        #expect(algorithm.streaming([[], message, []]) == expected)
    }

    @Test func genericCollectionUpdates() {
        let message = Self.pattern(1000)
        let expected = SHA256.hash(message)
        var contiguous = SHA256()
        contiguous.update(message[0 ..< 500])   // ArraySlice: contiguous storage
        contiguous.update(message[500...])
        #expect(contiguous.finalize() == expected)
        var chunked = SHA256()
        chunked.update(message.lazy.map { $0 })   // no contiguous storage: copied in chunks
        #expect(chunked.finalize() == expected)
        var repeated = SHA512()
        repeated.update(repeatElement(UInt8(ascii: "a"), count: 1_000_000))
        #expect(repeated.finalize().description == Self.millionAAnswers["SHA-512"])
    }

    @Test func finalizeLeavesTheHasherUsable() {
        var hasher = SHA1()
        hasher.update(Array("ab".utf8))
        _ = hasher.finalize()
        hasher.update(Array("c".utf8))
        // FIPS 180 example "abc".
        #expect(hasher.finalize().description == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    @Test func digestHasherMatchesTheTypedHashers() {
        let message = Self.pattern(777)
        let cases: [(HashAlgorithm, Digest, Int)] = [
            (.sha1, SHA1.hash(message), 20), (.sha224, SHA224.hash(message), 28), (.sha256, SHA256.hash(message), 32),
            (.sha384, SHA384.hash(message), 48), (.sha512, SHA512.hash(message), 64),
        ]
        for (algorithm, expected, count) in cases {
            var hasher = DigestHasher(algorithm)
            hasher.update(Array(message[0 ..< 100]))
            message[100...].withUnsafeBytes { hasher.update($0) }
            #expect(hasher.finalize() == expected)
            #expect(algorithm.hash(message) == expected)
            #expect(message.withUnsafeBytes { algorithm.hash($0) } == expected)
            #expect(algorithm.digestByteCount == count)
            #expect(expected.count == count)
        }
    }
}
