import CryptoPrimitives

/// A certificate link whose signature has verified: `issuer`'s key signed `child`. Identified by
/// the exact DER of both certificates (stronger than, and cheaper than, comparing their SHA-256:
/// a lookup hashes only the signature tails and compares bytes once on a hit).
public struct CertificateLink: Hashable, Sendable {
    let issuer: ArraySlice<UInt8>
    let child: ArraySlice<UInt8>

    init(issuer: Certificate, child: Certificate) {
        self.issuer = issuer.encoded
        self.child = child.encoded
    }

    private init(issuer: ArraySlice<UInt8>, child: ArraySlice<UInt8>) {
        self.issuer = issuer
        self.child = child
    }

    /// A copy that owns just its bytes (not the receipt they were found in).
    func compacted() -> CertificateLink {
        CertificateLink(issuer: ArraySlice(Array(issuer)), child: ArraySlice(Array(child)))
    }

    public static func == (a: CertificateLink, b: CertificateLink) -> Bool {
        ExactBytes(a.issuer) == ExactBytes(b.issuer) && ExactBytes(a.child) == ExactBytes(b.child)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ExactBytes(issuer))
        hasher.combine(ExactBytes(child))
    }
}

/// Where a verifier remembers links it has verified, so that a server checking many receipts
/// verifies Apple's intermediate once. Only successfully verified links are ever inserted.
public protocol VerifiedLinkStore: Sendable {
    /// True when `link` has been inserted (and, for a bounded store, not evicted since).
    func contains(_ link: CertificateLink) -> Bool
    /// Remembers `link`, which the caller has just verified.
    func insert(_ link: CertificateLink)
    /// The key of `signer` as `insertSigningKey` left it (with its verification table), or `nil`.
    func signingKey(of signer: Certificate) -> ECDSAPublicKey?
    /// Remembers `key`, the key of `signer`, a signing certificate whose whole path has just
    /// verified, so that later tokens it signs skip reading its key and use `key`'s table.
    /// (Both have no-op defaults; a store that wraps another should forward them.)
    func insertSigningKey(_ key: ECDSAPublicKey, of signer: Certificate)
}

extension VerifiedLinkStore {
    /// A store that keeps no signing keys.
    public func signingKey(of signer: Certificate) -> ECDSAPublicKey? { nil }
    /// A store that keeps no signing keys.
    public func insertSigningKey(_ key: ECDSAPublicKey, of signer: Certificate) {}
}

#if hasFeature(Embedded)
    /// The link store a verifier holds. Embedded Swift has no existentials of this protocol, so
    /// there it is the one concrete store, `VerifiedLinkCache`.
    public typealias AnyVerifiedLinkStore = VerifiedLinkCache
#else
    /// The link store a verifier holds: any `VerifiedLinkStore` (in Embedded Swift, which has no
    /// existentials of this protocol, the concrete `VerifiedLinkCache`).
    public typealias AnyVerifiedLinkStore = any VerifiedLinkStore
#endif

/// A bounded, thread-safe `VerifiedLinkStore`: at most `capacity` links, the oldest evicted first.
///
/// On Apple platforms a look-up or insertion that finds another thread inside the cache does not
/// wait: it counts as a miss (the link is verified again) or is skipped (see `LinkCacheLock`).
public final class VerifiedLinkCache: VerifiedLinkStore {
    /// Most links kept.
    public let capacity: Int

    private struct State {
        var links: Set<CertificateLink> = []
        var order: [CertificateLink] = []   // insertion order, a ring once full
        var next = 0
        /// Signing certificates' keys; emptied when `capacity` are kept and another comes.
        var signingKeys: [ExactBytes: ECDSAPublicKey] = [:]
    }

    private let state = LinkCacheLock(State())

    /// Makes an empty cache keeping at most `capacity` links (which must be positive).
    public init(capacity: Int = 64) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// True when `link` is among the links kept.
    public func contains(_ link: CertificateLink) -> Bool {
        state.withLockUnlessContended { $0.links.contains(link) } ?? false
    }

    /// Keeps a copy of `link`'s bytes, evicting the oldest link when `capacity` are kept already.
    public func insert(_ link: CertificateLink) {
        let owned = link.compacted()
        state.withLockUnlessContended { state in
            guard !state.links.contains(owned) else { return }
            if state.order.count < capacity {
                state.order.append(owned)
            } else {
                state.links.remove(state.order[state.next])
                state.order[state.next] = owned
                state.next = (state.next + 1) % capacity
            }
            state.links.insert(owned)
        }
    }

    /// Number of links held.
    public var count: Int { state.withLock { $0.links.count } }

    /// The kept key of `signer`, when a path from it has verified before.
    public func signingKey(of signer: Certificate) -> ECDSAPublicKey? {
        let bytes = ExactBytes(signer.encoded)
        return state.withLockUnlessContended { $0.signingKeys[bytes] } ?? nil
    }

    /// Keeps `key` for `signer` (at most `capacity` signers; the whole set is dropped when full).
    public func insertSigningKey(_ key: ECDSAPublicKey, of signer: Certificate) {
        let owned = ExactBytes(ArraySlice(Array(signer.encoded)))
        state.withLockUnlessContended { state in
            if state.signingKeys.count >= capacity, state.signingKeys[owned] == nil { state.signingKeys.removeAll() }
            state.signingKeys[owned] = key
        }
    }
}
