#if !(os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)) && canImport(Synchronization) && !hasFeature(Embedded)
    import Synchronization
#endif

/// The lock around a `VerifiedLinkCache`'s state, on every platform the package builds for.
///
/// Why two: the standard library's `Mutex` (Synchronization) needs macOS 15 / iOS 18 / tvOS 18 /
/// watchOS 11 / visionOS 2 on Apple platforms, and this package builds for SwiftPM's default
/// targets (macOS 10.13, iOS 12, …; DESIGN §15) without Foundation, Darwin or Dispatch in this
/// module. So on Apple platforms the state sits behind `CompareAndSwapLock`, built on the standard
/// library's pointer compare-and-swap alone, and elsewhere (Linux, where `Mutex` has no
/// availability limit and waits in the kernel) behind `Mutex`. Embedded Swift (wasm32, bare-metal
/// ARM) has no `Mutex`: there too the state sits behind `CompareAndSwapLock`, which on a
/// single-threaded target is never contended (one compare-and-swap to take it, one to free it).
///
/// `withLockUnlessContended` never waits on Apple platforms: the verification path asks for the
/// lock that way and, when another thread holds it, takes a cache miss (the link is verified
/// again, or not remembered) instead of spinning, so no thread spins on a lock whose holder a
/// higher-priority thread keeps from running (why OSSpinLock was deprecated). On Linux it waits
/// (a `Mutex`), as the cache always did.
struct LinkCacheLock<State>: ~Copyable, Sendable {
    #if !(os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)) && canImport(Synchronization) && !hasFeature(Embedded)
        private let mutex: Mutex<State>
        init(_ state: sending State) { mutex = Mutex(state) }

        /// Runs `body` with the state, waiting for the lock.
        borrowing func withLock<R>(_ body: (inout sending State) -> sending R) -> sending R {
            mutex.withLock(body)
        }

        /// Runs `body` with the state, waiting for the lock (a `Mutex` waits without spinning);
        /// never `nil` here.
        @discardableResult
        borrowing func withLockUnlessContended<R>(_ body: (inout sending State) -> sending R) -> sending R? {
            mutex.withLock(body)
        }
    #else
        private let lock: CompareAndSwapLock<State>
        init(_ state: sending State) { lock = CompareAndSwapLock(state) }

        /// Runs `body` with the state, spinning until the lock is free (for `count` only).
        borrowing func withLock<R>(_ body: (inout State) -> R) -> R { lock.withLock(body) }

        /// Runs `body` with the state, or returns `nil` at once when another thread holds the lock.
        @discardableResult
        borrowing func withLockUnlessContended<R>(_ body: (inout State) -> R) -> R? { lock.withLockIfAvailable(body) }
    #endif
}

/// A lock on the standard library alone: one pointer-sized flag set and cleared by
/// `_stdlib_atomicCompareExchangeStrongPtr` (a sequentially consistent `cmpxchg`, so what the
/// holder wrote is visible to the next holder; available on every deployment target, unlike the
/// Synchronization module's `Atomic` and `Mutex`). Built and tested on every platform
/// (`LinkCacheLockTests`); `LinkCacheLock` uses it on Apple platforms.
package final class CompareAndSwapLock<State>: @unchecked Sendable {
    /// nil when free, `held` while a thread is in a critical section.
    private let flag: UnsafeMutablePointer<UnsafeRawPointer?>
    private var state: State
    private static var held: UnsafeRawPointer { UnsafeRawPointer(bitPattern: 1)! }

    package init(_ state: State) {
        self.state = state
        flag = .allocate(capacity: 1)
        flag.initialize(to: nil)
    }

    deinit {
        flag.deinitialize(count: 1)
        flag.deallocate()
    }

    /// Takes the lock if it is free; true when taken.
    private func tryAcquire() -> Bool {
        var expected: UnsafeRawPointer? = nil
        return _stdlib_atomicCompareExchangeStrongPtr(object: flag, expected: &expected, desired: Self.held)
    }

    /// Frees the lock (a compare-and-swap too, for its ordering: the writes made under the lock
    /// happen before the next holder's).
    private func release() {
        var expected: UnsafeRawPointer? = Self.held
        let released = _stdlib_atomicCompareExchangeStrongPtr(object: flag, expected: &expected, desired: nil)
        assert(released, "CompareAndSwapLock released while not held")
    }

    /// Runs `body` with the state, or returns `nil` at once when another thread holds the lock.
    package func withLockIfAvailable<R>(_ body: (inout State) -> R) -> R? {
        guard tryAcquire() else { return nil }
        defer { release() }
        return body(&state)
    }

    /// Runs `body` with the state, spinning until the lock is free.
    package func withLock<R>(_ body: (inout State) -> R) -> R {
        while true {
            if let result = withLockIfAvailable(body) { return result }
        }
    }
}
