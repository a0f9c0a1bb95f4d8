/// SHA-1 (FIPS 180-4 §6.1). Broken for collision resistance; kept because legacy receipts and
/// certificates are signed with it.
public struct SHA1: HashFunction {
    /// 20.
    public static var digestByteCount: Int { 20 }

    private var core = BlockHasher(SHA1State(), digestByteCount: 20)

    /// A hasher that has seen no input.
    public init() {}

    /// Feeds bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }

    /// The digest of everything fed so far; the hasher is left unchanged.
    public func finalize() -> Digest { core.finalize() }
}
