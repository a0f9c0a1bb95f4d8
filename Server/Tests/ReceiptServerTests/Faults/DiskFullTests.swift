import AsyncHTTPClient
import Foundation
import GRDB
import Testing

/// SQLite's filesystem fills up (a small tmpfs under the test's own temporary directory): writes
/// are answered 21100 (verifyReceipt) and 503 (notifications), the server does not crash, answers
/// return to 0 once space is freed, every acknowledged receipt is stored, and the database passes
/// `PRAGMA integrity_check`. Mounting needs root; where the system refuses it the test is skipped
/// with the reason printed.
@Suite struct DiskFullTests {
    /// Mounts a `size` tmpfs at `path`; the reason when the system refuses.
    static func mount(_ path: String, size: String) -> String? {
        guard getuid() == 0 else { return "mounting a filesystem needs root" }
        let (status, errors) = command("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path])
        return status == 0 ? nil : "mount refused: \(errors)"
    }

    static func command(_ path: String, _ arguments: [String]) -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "\(error)") }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Writes a file at `path` until the filesystem has no space left; its size.
    static func fill(_ path: String) -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else { return 0 }
        defer { try? handle.close() }
        var written = 0
        for size in [1 << 20, 64 << 10, 4 << 10, 512] {
            let chunk = Data(repeating: 0x5A, count: size)
            while (try? handle.write(contentsOf: chunk)) != nil { written += size }
        }
        try? handle.synchronize()
        return written
    }

    @Test(.enabled(if: Synthetic.distinctBodiesAvailable))
    func sqliteFilesystemFills() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-fault-full-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        if let refused = Self.mount(directory, size: "16m") {
            print("SKIP DiskFullTests: \(refused)")
            return
        }
        defer { _ = Self.command("/bin/umount", ["-l", directory]) }

        let bodies = try Synthetic.distinctBodies()
        let database = TestDatabase(backend: .sqlite, url: "sqlite:" + directory + "/receipts.sqlite")
        let server = try await LiveServer.start(LiveTests.serverArguments(database, ["--root-g3", SyntheticNotifications.rootPath]))
        let load = FaultLoad(baseURL: server.baseURL, connections: 4)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var acknowledged: [Int] = []
        var next = 0
        func verify() async -> FaultLoad.Outcome {
            let index = next
            next += 1
            let outcome = await load.send(
                "verifyReceipt", FaultLoad.post(load.baseURL + "/verifyReceipt", bodies[index % bodies.count]),
                classify: FaultLoad.verifyReceipt)
            if outcome.isAcknowledged { acknowledged.append(index % bodies.count) }
            return outcome
        }
        func notify(_ id: Int) async -> FaultLoad.Outcome {
            await load.send(
                "notification",
                FaultLoad.post(load.baseURL + "/notifications/v2", PostgresOutageTests.subscribed(String(9_300_000_000 + id), now: now).body),
                classify: FaultLoad.notification)
        }
        for _ in 0 ..< 20 { #expect(await verify().isAcknowledged, "before the disk fills") }

        let filler = directory + "/filler"
        let filled = Self.fill(filler)
        // Writes fail once SQLite needs a page it does not have (the WAL may still have room for
        // a few): keep writing until storage refuses, 400 receipts at most.
        var full: [FaultLoad.Outcome] = []
        while next < 420, !full.contains(where: \.isRetryable) { full.append(await verify()) }
        var notificationsFull: [FaultLoad.Outcome] = []
        for id in 0 ..< 50 where !notificationsFull.contains(where: \.isRetryable) { notificationsFull.append(await notify(id)) }
        let health = await load.send("health", HTTPClientRequest(url: load.baseURL + "/health"), classify: FaultLoad.health)
        #expect(full.contains { $0.isRetryable }, "verifyReceipt answered 21100 on a full disk")
        #expect(notificationsFull.contains { $0.isRetryable }, "notifications answered 503 on a full disk")
        #expect(server.process.isRunning, "no crash")

        // Space freed: answers return to 0 without a restart.
        try FileManager.default.removeItem(atPath: filler)
        var afterFree: [FaultLoad.Outcome] = []
        for _ in 0 ..< 10 { afterFree.append(await verify()) }
        let notificationAfterFree = await notify(1_000)
        #expect(afterFree.allSatisfy { $0.isAcknowledged }, "\(afterFree)")
        #expect(notificationAfterFree.isAcknowledged)

        let wrong = load.all.compactMap(\.outcome.wrong)
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        let (count, p99, slowest) = FaultLoad.summary(load.all)
        print(
            "FAULT sqlite disk full: filler \(filled) bytes; \(full.count) verifyReceipt until 21100, "
                + "\(notificationsFull.count) notifications until 503, /health \(health.isAcknowledged ? 200 : 503) while full; "
                + "\(count) answers, p99 \(p99), max \(slowest); after freeing space \(afterFree.filter(\.isAcknowledged).count)/10 ok")
        try await load.client.shutdown()
        #expect(server.terminate() == 0, "the server stopped cleanly")

        let ids = Set(acknowledged).map { "'\(Synthetic.distinctBodyID($0))'" }.joined(separator: ",")
        let queue = try DatabaseQueue(path: directory + "/receipts.sqlite")
        let (integrity, stored) = try await queue.read { db in
            (
                try String.fetchAll(db, sql: "PRAGMA integrity_check"),
                try Int.fetchOne(
                    db, sql: "SELECT count(DISTINCT transaction_id) FROM transactions WHERE transaction_id IN (\(ids))") ?? 0
            )
        }
        try queue.close()
        #expect(integrity == ["ok"])
        #expect(stored == Set(acknowledged).count, "acknowledged receipts stored: \(stored) of \(Set(acknowledged).count)")
    }
}
