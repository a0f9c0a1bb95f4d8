#if canImport(Foundation)
    import Foundation

    /// The lock of `JWSHeaderCache`: Foundation's `NSLock` where Foundation exists (every Apple
    /// system the package supports and Linux).
    final class HeaderCacheLock: Sendable {
        private let lock = NSLock()

        func withLock<T>(_ body: () -> T) -> T { lock.withLock(body) }
    }
#else
    import Synchronization

    /// The lock of `JWSHeaderCache` where Foundation does not exist (Embedded Swift): a spin
    /// lock on one atomic flag, acquire on taking it and release on giving it back (the cache
    /// holds it only for one dictionary read or write).
    final class HeaderCacheLock: Sendable {
        private let taken = Atomic<Bool>(false)

        func withLock<T>(_ body: () -> T) -> T {
            while !taken.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {}
            defer { taken.store(false, ordering: .releasing) }
            return body()
        }
    }
#endif
