import Foundation

/// One file's sweep, shared by the coordinator's threads: the workers' outcomes as they arrive.
final class Sweep: @unchecked Sendable {
    let name: String
    let mutants: Mutants
    private let lock = NSLock()
    private(set) var counts: [Outcome: Int] = [:]
    /// Our reasons for the mutants only OpenSSL accepts.
    private(set) var reasons: [String: Int] = [:]
    /// Mutants in a must-be-0 line, with what happened.
    private(set) var findings: [(index: Int, what: String)] = []

    init(name: String, mutants: Mutants) {
        self.name = name
        self.mutants = mutants
    }

    func record(_ index: Int, _ outcome: Outcome, reason: String?) {
        lock.withLock {
            counts[outcome, default: 0] += 1
            if outcome == .onlyOpenSSLAccepts { reasons[reason ?? "?", default: 0] += 1 }
            if outcome == .onlyWeAccept { findings.append((index, "we accept, OpenSSL refuses")) }
            if outcome == .differentPayload { findings.append((index, "we accept a different payload")) }
        }
    }

    /// A worker died (`what`: how) or stalled on mutant `index`.
    func recordFailure(_ index: Int, _ what: String) {
        lock.withLock {
            crashesAndHangs += 1
            findings.append((index, what))
        }
    }

    private(set) var crashesAndHangs = 0

    var judged: Int { lock.withLock { counts.values.reduce(0, +) + crashesAndHangs } }
    var mustBeZero: Int { lock.withLock { (counts[.onlyWeAccept] ?? 0) + (counts[.differentPayload] ?? 0) + crashesAndHangs } }
}

/// Runs one file's mutants through `workers` worker processes (this executable, `--worker`),
/// restarting a worker after the mutant it crashed or stalled on, and killing one that makes no
/// progress for `hangSeconds`.
struct Coordinator {
    var executable: String
    var workers: Int
    var hangSeconds: Double

    func run(_ sweep: Sweep, file: String) {
        let watchdog = Watchdog(slots: workers, limit: hangSeconds)
        let thread = Thread { watchdog.watch() }
        thread.start()
        DispatchQueue.concurrentPerform(iterations: workers) { shard in
            runShard(shard, sweep: sweep, file: file, watchdog: watchdog)
        }
        watchdog.stop()
    }

    private func runShard(_ shard: Int, sweep: Sweep, file: String, watchdog: Watchdog) {
        var next = shard
        while next < sweep.mutants.count {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = [
                "--worker", file, "--stride", String(sweep.mutants.stride),
                "--bits", sweep.mutants.bits.map(String.init).joined(separator: ","),
                "--shard", "\(shard)/\(workers)", "--from", String(next),
            ]
            var environment = ProcessInfo.processInfo.environment
            environment["SWIFT_BACKTRACE"] = "enable=no"
            process.environment = environment
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch {
                sweep.recordFailure(next, "worker did not start: \(error)")
                return
            }
            watchdog.started(shard, process)
            var done = false
            var pending: [UInt8] = []
            while case let data = pipe.fileHandleForReading.availableData, !data.isEmpty {
                pending += data
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    if line == "done" { done = true; continue }
                    guard let (index, outcome, reason) = parse(line) else { continue }
                    sweep.record(index, outcome, reason: reason)
                    next = index + workers
                    watchdog.progressed(shard)
                }
            }
            process.waitUntilExit()
            let stalled = watchdog.finished(shard)
            if done && process.terminationStatus == 0 { return }
            let how =
                stalled
                ? "hang (no answer in \(Int(hangSeconds)) s)"
                : process.terminationReason == .uncaughtSignal
                    ? "crash (signal \(process.terminationStatus))"
                    : "crash (exit status \(process.terminationStatus))"
            sweep.recordFailure(next, how)
            next += workers
        }
    }

    private func parse(_ line: String) -> (Int, Outcome, String?)? {
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let index = Int(parts[0]), let outcome = Outcome(rawValue: String(parts[1])) else { return nil }
        return (index, outcome, parts.count > 2 ? String(parts[2]) : nil)
    }
}

/// Kills a worker that has made no progress for `limit` seconds.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Double
    private var processes: [Process?]
    private var lastProgress: [Date]
    private var stalled: [Bool]
    private var stopped = false

    init(slots: Int, limit: Double) {
        self.limit = limit
        processes = Array(repeating: nil, count: slots)
        lastProgress = Array(repeating: Date(), count: slots)
        stalled = Array(repeating: false, count: slots)
    }

    func started(_ slot: Int, _ process: Process) {
        lock.withLock {
            processes[slot] = process; lastProgress[slot] = Date(); stalled[slot] = false
        }
    }

    func progressed(_ slot: Int) { lock.withLock { lastProgress[slot] = Date() } }

    /// Forgets the slot's process; whether it was killed for stalling.
    func finished(_ slot: Int) -> Bool {
        lock.withLock {
            processes[slot] = nil; return stalled[slot]
        }
    }

    func stop() { lock.withLock { stopped = true } }

    func watch() {
        while !lock.withLock({ stopped }) {
            Thread.sleep(forTimeInterval: 0.5)
            lock.withLock {
                for slot in processes.indices {
                    guard let process = processes[slot], !stalled[slot], Date().timeIntervalSince(lastProgress[slot]) > limit else { continue }
                    stalled[slot] = true
                    kill(process.processIdentifier, SIGKILL)
                }
            }
        }
    }
}
