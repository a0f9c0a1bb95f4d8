/// SHA-256 (FIPS 180-4 §6.2).
public struct SHA256: HashFunction {
    /// 32.
    public static var digestByteCount: Int { 32 }

    private var core = BlockHasher(SHA256State.sha256, digestByteCount: 32)

    /// A hasher that has seen no input.
    public init() {}

    /// Feeds bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }

    /// The digest of everything fed so far; the hasher is left unchanged.
    public func finalize() -> Digest { core.finalize() }
}

/// SHA-224 (FIPS 180-4 §6.3): SHA-256 with other initial values, truncated to 28 bytes.
public struct SHA224: HashFunction {
    /// 28.
    public static var digestByteCount: Int { 28 }

    private var core = BlockHasher(SHA256State.sha224, digestByteCount: 28)

    /// A hasher that has seen no input.
    public init() {}

    /// Feeds bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }

    /// The digest of everything fed so far; the hasher is left unchanged.
    public func finalize() -> Digest { core.finalize() }
}
