/// Streaming hashing with an algorithm chosen at run time.
public struct DigestHasher: Sendable {
    private enum Engine: Sendable {
        case sha1(SHA1), sha224(SHA224), sha256(SHA256), sha384(SHA384), sha512(SHA512)
    }

    /// The algorithm this hasher computes.
    public let algorithm: HashAlgorithm
    private var engine: Engine

    /// A hasher for `algorithm` that has seen no input.
    public init(_ algorithm: HashAlgorithm) {
        self.algorithm = algorithm
        switch algorithm {
        case .sha1: engine = .sha1(SHA1())
        case .sha224: engine = .sha224(SHA224())
        case .sha256: engine = .sha256(SHA256())
        case .sha384: engine = .sha384(SHA384())
        case .sha512: engine = .sha512(SHA512())
        }
    }

    /// Feeds bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        switch engine {
        case .sha1(var hasher): hasher.update(bytes); engine = .sha1(hasher)
        case .sha224(var hasher): hasher.update(bytes); engine = .sha224(hasher)
        case .sha256(var hasher): hasher.update(bytes); engine = .sha256(hasher)
        case .sha384(var hasher): hasher.update(bytes); engine = .sha384(hasher)
        case .sha512(var hasher): hasher.update(bytes); engine = .sha512(hasher)
        }
    }

    /// Feeds the bytes of an array.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything fed so far; the hasher is left unchanged.
    public func finalize() -> Digest {
        switch engine {
        case .sha1(let hasher): hasher.finalize()
        case .sha224(let hasher): hasher.finalize()
        case .sha256(let hasher): hasher.finalize()
        case .sha384(let hasher): hasher.finalize()
        case .sha512(let hasher): hasher.finalize()
        }
    }
}
