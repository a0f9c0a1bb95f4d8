import Dispatch
import Testing
import X509Certificates

/// `CompareAndSwapLock`, the lock `VerifiedLinkCache` uses on Apple platforms (where `Mutex` needs
/// macOS 15 / iOS 18), run here on Linux, where the cache itself uses `Mutex`.
@Suite struct LinkCacheLockTests {
    /// Two fields that only a critical section keeps equal, changed by four threads at once.
    struct Pair {
        var a = 0
        var b = 0
    }

    @Test func excludesOtherThreads() {
        let lock = CompareAndSwapLock(Pair())
        let threads = 4, rounds = 50_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0 ..< rounds {
                lock.withLock { pair in
                    pair.a += 1
                    pair.b = pair.a
                }
            }
        }
        let pair = lock.withLock { $0 }
        #expect(pair.a == threads * rounds && pair.b == pair.a)
    }

    /// What the cache's look-ups do on Apple platforms: never wait, and miss while the lock is held.
    @Test func ifAvailableDoesNotWaitWhileHeld() {
        let lock = CompareAndSwapLock(0)
        let inside = lock.withLock { value -> Int? in
            value = 1
            return lock.withLockIfAvailable { $0 }
        }
        #expect(inside == nil)
        #expect(lock.withLockIfAvailable { $0 } == 1)
    }

    @Test func ifAvailableExcludesOtherThreads() {
        let lock = CompareAndSwapLock(Pair())
        let threads = 4, rounds = 50_000
        let taken = CompareAndSwapLock(0)   // how many critical sections ran, summed after each thread
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            var count = 0
            for _ in 0 ..< rounds {
                let done: Void? = lock.withLockIfAvailable { pair in
                    pair.a += 1
                    pair.b = pair.a
                }
                if done != nil { count += 1 }
            }
            taken.withLock { $0 += count }
        }
        let pair = lock.withLock { $0 }
        #expect(pair.a == taken.withLock({ $0 }) && pair.b == pair.a && pair.a > 0)
    }
}
