import Foundation

/// Long synchronous work (signing a thousand test tokens) on a thread of its own, off Swift
/// concurrency's cooperative pool (one thread per core: two here), whose threads it would block.
enum OwnThread {
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
