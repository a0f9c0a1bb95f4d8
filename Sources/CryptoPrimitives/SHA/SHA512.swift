/// SHA-512 (FIPS 180-4 §6.4).
public struct SHA512: HashFunction {
    /// 64.
    public static var digestByteCount: Int { 64 }

    private var core = BlockHasher(SHA512State.sha512, digestByteCount: 64)

    /// A hasher that has seen no input.
    public init() {}

    /// Feeds bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }

    /// The digest of everything fed so far; the hasher is left unchanged.
    public func finalize() -> Digest { core.finalize() }
}

/// SHA-384 (FIPS 180-4 §6.5): SHA-512 with other initial values, truncated to 48 bytes.
public struct SHA384: HashFunction {
    /// 48.
    public static var digestByteCount: Int { 48 }

    private var core = BlockHasher(SHA512State.sha384, digestByteCount: 48)

    /// A hasher that has seen no input.
    public init() {}

    /// Feeds bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }

    /// The digest of everything fed so far; the hasher is left unchanged.
    public func finalize() -> Digest { core.finalize() }
}

/// SHA-512/224 (FIPS 180-4 §6.6): SHA-512 with other initial values, truncated to 28 bytes.
public struct SHA512_224: HashFunction {
    /// 28.
    public static var digestByteCount: Int { 28 }

    private var core = BlockHasher(SHA512State.sha512_224, digestByteCount: 28)

    /// A hasher that has seen no input.
    public init() {}

    /// Feeds bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }

    /// The digest of everything fed so far; the hasher is left unchanged.
    public func finalize() -> Digest { core.finalize() }
}

/// SHA-512/256 (FIPS 180-4 §6.7): SHA-512 with other initial values, truncated to 32 bytes.
public struct SHA512_256: HashFunction {
    /// 32.
    public static var digestByteCount: Int { 32 }

    private var core = BlockHasher(SHA512State.sha512_256, digestByteCount: 32)

    /// A hasher that has seen no input.
    public init() {}

    /// Feeds bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }

    /// The digest of everything fed so far; the hasher is left unchanged.
    public func finalize() -> Digest { core.finalize() }
}
