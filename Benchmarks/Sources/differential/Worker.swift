import Foundation
import PKCS7
import ReceiptBenchmarkCases
import X509Certificates

/// One worker process: judges its share of one file's mutants (every `shards`-th index from
/// `shard`, starting at `from`) and writes one line per mutant to standard output, unbuffered, so
/// that the coordinator knows which mutant a crash or a hang happened on:
/// `INDEX OUTCOME[ OUR-REASON]`, then `done`.
enum Worker {
    struct Job {
        var file: String
        var stride: Int
        var bits: [Int]
        var shard: Int
        var shards: Int
        var from: Int
    }

    /// `DIFFERENTIAL_SELF_TEST=crash:N` or `hang:N` makes the worker trap or stall on mutant N:
    /// how the coordinator's crash and hang accounting was checked (Benchmarks/README.md).
    static let selfTest: (kind: String, index: Int)? = {
        guard let value = ProcessInfo.processInfo.environment["DIFFERENTIAL_SELF_TEST"] else { return nil }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let index = Int(parts[1]) else { return nil }
        return (String(parts[0]), index)
    }()

    static func run(_ job: Job) -> Never {
        guard let data = FileManager.default.contents(atPath: job.file) else {
            emit("error cannot read \(job.file)")
            exit(2)
        }
        let mutants = Mutants(original: [UInt8](data), stride: job.stride, bits: job.bits)
        let original = (try? SignedData(berEncoded: mutants.original))?.contentBytes() ?? []
        guard let anchor = TrustAnchor.appleRootCA else { emit("error no Apple Root CA"); exit(2) }
        let store = OpenSSL.TrustStore(anchorDER: Array(anchor.certificate.encoded))
        var index = job.from + (job.shard - job.from % job.shards + job.shards) % job.shards
        while index < mutants.count {
            if let test = selfTest, test.index == index {
                if test.kind == "crash" { fatalError("self-test crash at mutant \(index)") }
                if test.kind == "hang" { while true { sleep(60) } }
            }
            let bytes = mutants.bytes(index)
            let ours = Ours.verdict(bytes)
            let outcome = Outcome.of(ours: ours, openssl: OpenSSLCMS.verdict(bytes, store: store), original: original)
            var line = "\(index) \(outcome.rawValue)"
            if outcome == .onlyOpenSSLAccepts, case .refuse(let reason) = ours { line += " " + oneLine(reason) }
            emit(line)
            index += job.shards
        }
        emit("done")
        exit(0)
    }

    /// Writes a line straight to the pipe (no buffer a crash could lose).
    static func emit(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if n <= 0 { exit(3) }
            written += n
        }
    }

    /// A reason on one line (names from mutated certificates may hold control characters).
    static func oneLine(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }
}
