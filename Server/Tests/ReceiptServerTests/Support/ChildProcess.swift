import Foundation

#if canImport(Glibc)
    import Glibc

    /// The tests' child processes are started by `ChildProcess`, not Foundation's `Process`: on
    /// Linux, swift-corelibs-foundation 6.3.1's `Process.run()` reads `/proc/self/fd` with a
    /// 256-byte over-read of each `dirent` (`findMaximumOpenFromProcSelfFD`,
    /// swiftlang/swift-corelibs-foundation#5472). With the ~1,800 descriptors this suite holds at
    /// its peak (servers, PostgreSQL pools), the last entries fill glibc's 32 KiB directory buffer
    /// and the copy can run into an unmapped page: one Server/ci run died of SIGSEGV there. Every
    /// `Process()` in this module is this type (the module's own name shadows Foundation's).
    typealias Process = ChildProcess

    /// The part of Foundation's `Process` the tests use, over `posix_spawn(3)`: the child gets
    /// descriptors 0–2 as asked and none other (`posix_spawn_file_actions_addclosefrom_np`), its
    /// working directory, arguments and environment. A child is reaped only by `isRunning` or
    /// `waitUntilExit()`, so its pid is never reused while this object can still signal it.
    final class ChildProcess: @unchecked Sendable {
        var executableURL: URL?
        var arguments: [String] = []
        var environment: [String: String]?
        var currentDirectoryURL: URL?
        /// A `Pipe`, a `FileHandle`, or nil (inherit the test process's).
        var standardInput: Any?
        var standardOutput: Any?
        var standardError: Any?

        private let lock = NSLock()
        private var pid: pid_t = 0
        private var exitStatus: Int32?

        var processIdentifier: Int32 { lock.withLock { pid } }

        /// Starts the child; throws when `posix_spawn` fails (no such program, …).
        func run() throws {
            guard let executableURL else { throw ChildProcessError("no executable") }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for (stream, target) in [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)] {
                if let fd = Self.childDescriptor(stream, reading: target == 0) {
                    posix_spawn_file_actions_adddup2(&actions, fd, target)
                }
            }
            if let currentDirectoryURL {
                try Self.changeDirectory(currentDirectoryURL.path, &actions)
            }
            try Self.closeFrom(3, &actions)
            let argv = [executableURL.path] + arguments
            let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
            var child: pid_t = 0
            let result = Self.withCStrings(argv) { argvPointer in
                Self.withCStrings(env) { envPointer in
                    posix_spawn(&child, executableURL.path, &actions, nil, argvPointer, envPointer)
                }
            }
            guard result == 0 else { throw ChildProcessError("posix_spawn \(executableURL.path): \(String(cString: strerror(result)))") }
            lock.withLock { pid = child }
            // The parent's copies of the child's pipe ends: closed, so that reads see end of file.
            for (stream, reading) in [(standardInput, true), (standardOutput, false), (standardError, false)] {
                if let pipe = stream as? Pipe {
                    try? (reading ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close()
                }
            }
        }

        /// Whether the child has not exited yet (reaping it if it has).
        var isRunning: Bool {
            lock.withLock {
                guard pid != 0, exitStatus == nil else { return false }
                var status: Int32 = 0
                let reaped = waitpid(pid, &status, WNOHANG)
                if reaped == pid { exitStatus = status }
                return reaped == 0
            }
        }

        /// SIGTERM, unless the child has been reaped.
        func terminate() {
            lock.withLock {
                if pid != 0, exitStatus == nil { _ = kill(pid, SIGTERM) }
            }
        }

        /// Blocks until the child has exited and been reaped.
        func waitUntilExit() {
            while true {
                let child: pid_t? = lock.withLock { exitStatus == nil ? pid : nil }
                guard let child, child != 0 else { return }
                var status: Int32 = 0
                let reaped = waitpid(child, &status, 0)
                if reaped == child {
                    lock.withLock { if exitStatus == nil { exitStatus = status } }
                    return
                }
                // EINTR: again; ECHILD: `isRunning` reaped it meanwhile (the loop sees its status).
                if reaped == -1, errno == ECHILD { usleep(1_000) }
            }
        }

        /// The exit code, or the signal's number for a child killed by one (as Foundation's).
        var terminationStatus: Int32 {
            let status = lock.withLock { exitStatus } ?? 0
            let signal = status & 0x7f
            return signal == 0 ? (status >> 8) & 0xff : signal
        }

        private static func childDescriptor(_ stream: Any?, reading: Bool) -> Int32? {
            if let pipe = stream as? Pipe {
                return reading ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
            }
            return (stream as? FileHandle)?.fileDescriptor
        }

        /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34) and `…_addchdir_np` (2.29),
        /// which Swift's Glibc module does not declare: looked up by name.
        private static func closeFrom(_ lowest: Int32, _ actions: inout posix_spawn_file_actions_t) throws {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            let closeFrom = unsafeBitCast(try symbol("posix_spawn_file_actions_addclosefrom_np"), to: CloseFrom.self)
            guard closeFrom(&actions, lowest) == 0 else { throw ChildProcessError("addclosefrom_np failed") }
        }

        private static func changeDirectory(_ path: String, _ actions: inout posix_spawn_file_actions_t) throws {
            typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
            let changeDirectory = unsafeBitCast(try symbol("posix_spawn_file_actions_addchdir_np"), to: ChangeDirectory.self)
            guard changeDirectory(&actions, path) == 0 else { throw ChildProcessError("addchdir_np failed") }
        }

        private static func symbol(_ name: String) throws -> UnsafeMutableRawPointer {
            guard let symbol = dlsym(nil, name) else { throw ChildProcessError("\(name) is missing from this glibc") }
            return symbol
        }

        private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
            let copies = strings.map { strdup($0) }
            defer { copies.forEach { free($0) } }
            return (copies + [nil]).withUnsafeBufferPointer { body($0.baseAddress!) }
        }
    }

    struct ChildProcessError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
#endif
