import AppStoreJWS
import AppStoreServerClient
import Foundation
import HummingbirdTesting
@testable import receipt_server
import ReceiptService
import ReceiptStore
import Synchronization
import X509Certificates

/// Customers for the import tests, an upstream receipt-server holding them, and the import run
/// as a process (`receipt-server import`) or in process (the service and the client).
enum ImportFixture {
    typealias N = SyntheticNotifications
    typealias S = SignedAPIData
    static let day = S.day
    static let t0: Int64 = 1_704_103_200_000   // 2024-01-01T10:00:00Z
    /// 2100-01-01: an active subscription's expiry, far from any test's clock.
    static let farFuture: Int64 = 4_102_444_800_000

    /// One customer: the id an import is given (its original transaction id), the notifications
    /// and posted transactions that tell the upstream of it.
    struct Customer: Sendable {
        let id: String
        var notifications: [String] = []
        var posted: [String] = []
    }

    /// Customer `index`, of one of four kinds by `index % 4`: an active subscription (status 1), one
    /// in billing retry (3), a refunded one (5), each with `transactions` transactions and a renewal
    /// info; and a non-consumable purchase.
    static func customer(_ index: Int, transactions: Int = 3, environment: String = "Production") -> Customer {
        let original = 8_000_000_000_000 + Int64(index) * 1_000
        var customer = Customer(id: String(original))
        let kind = index % 4
        if kind == 3 {
            customer.posted = [
                S.purchase(
                    customer.id, type: "Non-Consumable", product: "com.example.lifetime", purchased: t0, signed: t0 + 1_000, environment: environment)
            ]
            return customer
        }
        for k in 0 ..< transactions {
            let purchase = t0 + Int64(k) * 30 * day
            let isLast = k == transactions - 1
            var transaction = N.Transaction(
                transactionId: String(original + Int64(k)), originalTransactionId: customer.id, purchaseDate: purchase,
                expiresDate: isLast && kind == 0 ? farFuture : purchase + 30 * day, signedDate: purchase + 1_000 + Int64(index),
                environment: environment)
            if isLast && kind == 2 {
                transaction.revocationDate = purchase + 2 * day
                transaction.revocationReason = 1
                transaction.signedDate = purchase + 2 * day
            }
            let token = S.transaction(transaction)
            guard isLast else {
                customer.posted.append(token)
                continue
            }
            let renewal = S.renewal(
                N.Renewal(
                    originalTransactionId: customer.id, autoRenewStatus: kind == 0 ? 1 : 0, signedDate: transaction.signedDate,
                    isInBillingRetryPeriod: kind == 1 ? true : nil, environment: environment))
            customer.notifications.append(
                S.notification(
                    kind == 2 ? "REFUND" : "DID_RENEW", signedDate: transaction.signedDate, transaction: token, renewal: renewal,
                    environment: environment))
        }
        return customer
    }

    /// Tells the upstream of `customers` (posted transactions first, then notifications).
    static func post(_ customers: [Customer], to api: APISession, sandbox: Bool = false) async throws {
        for customer in customers {
            for token in customer.posted { _ = try await api.post("/inApps/v1/transactions", S.posted(token), sandbox: sandbox).ok() }
            for token in customer.notifications { try await api.notify(token, sandbox: sandbox) }
        }
    }

    /// An upstream receipt-server on a loopback port over `database` (trusting the synthetic G3
    /// root, with the session's In-App Purchase key registered), while `body` runs with a
    /// session on it and its base URL.
    static func withUpstream<T: Sendable>(
        _ database: TestDatabase, signer: APIJWTSigner, keyRate: Double = 0, keyBurst: Int = 200,
        _ body: @escaping @Sendable (APISession, String) async throws -> T
    ) async throws -> T {
        try await SignedDataFixtures.with(database) { store in try await store.putIAPKey(signer.record()) }
        var configuration = SyntheticNotifications.configuration(database)
        configuration.keyRate = keyRate
        configuration.keyBurst = keyBurst
        return try await TestServer.with(configuration, framework: .live) { client in
            guard let port = client.port else { throw UnexpectedAnswer(description: "no port") }
            return try await body(APISession(client: client, signer: signer), "http://127.0.0.1:\(port)")
        }
    }

    /// The signer's private key as the `.p8` file App Store Connect gives.
    static func keyFile(_ signer: APIJWTSigner) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString).p8").path
        try Data(signer.key.pemRepresentation.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `receipt-server import`'s arguments for `database`, the signer's key and `upstream`.
    static func arguments(
        _ database: TestDatabase, signer: APIJWTSigner, key: String, upstream: String, environment: String = "Production"
    ) -> [String] {
        [
            "import", "--database", database.url, "--app", Synthetic.bundleID, "--environment", environment, "--key", key,
            "--key-id", signer.keyID, "--issuer", signer.issuerID, "--upstream", upstream, "--root-g3", N.rootPath,
        ]
    }

    /// Runs `receipt-server ARGUMENTS`; its exit status, standard output and standard error.
    static func run(_ arguments: [String], executable: String? = nil) async throws -> (status: Int32, output: String, errors: String) {
        let process = try start(arguments, executable: executable)
        return try await finish(process)
    }

    /// Starts `receipt-server ARGUMENTS` (the one built beside the tests, or `executable`) with
    /// its output and errors to pipes.
    static func start(_ arguments: [String], executable: String? = nil) throws -> Process {
        guard let executable = executable.map({ URL(fileURLWithPath: $0) }) ?? LiveServer.executable else {
            throw UnexpectedAnswer(description: "receipt-server executable not built")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = TestSecrets.environment
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// Waits for a process `start` started; its exit status, output and errors.
    static func finish(_ process: Process) async throws -> (status: Int32, output: String, errors: String) {
        guard let output = process.standardOutput as? Pipe, let errors = process.standardError as? Pipe else {
            throw UnexpectedAnswer(description: "no pipes")
        }
        return try await offPool {
            let errorData = Mutex<Data>(Data())
            let reader = Thread { errorData.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
            reader.start()
            let out = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            while !reader.isFinished { Thread.sleep(forTimeInterval: 0.005) }
            return (
                process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: errorData.withLock { $0 }, as: UTF8.self)
            )
        }
    }

    /// The summary a run printed.
    static func summary(_ output: String) throws -> [String: Any] {
        guard let line = output.split(separator: "\n").last else { throw UnexpectedAnswer(description: "no output") }
        return try JSONAnswer.object(Data(line.utf8))
    }

    /// The import in process: the service over `database` reading `baseURL` with the client.
    static func importInProcess(
        _ database: TestDatabase, baseURL: String, ids: [String], policy: AppStoreServerAPIClientPolicy,
        limits: ImportLimits = ImportLimits(), signer: APIJWTSigner = APIJWTSigner()
    ) async throws -> ImportSummary {
        let key = try P256PrivateKeyFile.signingKey(pem: signer.key.pemRepresentation)
        let client = AppStoreServerAPIClient(
            baseURL: baseURL, signer: AppStoreSigner(key: key, keyID: signer.keyID, issuerID: signer.issuerID, bundleID: Synthetic.bundleID),
            policy: policy)
        let anchors = [try StartupOptions.rootG3(N.rootPath)]
        do {
            let summary = try await SignedDataFixtures.with(database) { store in
                let service = ImportService(
                    store: store, source: ClientImportSource(client: client), bundleID: Synthetic.bundleID, environment: "Production",
                    anchors: anchors, limits: limits, logger: TestServer.logger)
                return await service.run(ids)
            }
            try await client.shutdown()
            return summary
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Everything both servers answer about `ids`: each id's statuses body and its history's
    /// tokens (sorted: the history's order is when each server stored them).
    static func answers(_ api: APISession, _ ids: [String], sandbox: Bool = false) async throws -> [String: Answers] {
        var answers: [String: Answers] = [:]
        for id in ids {
            let statuses = try await api.get("/inApps/v1/subscriptions/\(id)", sandbox: sandbox)
            let history = try await api.allHistory(id, sandbox: sandbox)
            answers[id] = Answers(statusCode: statuses.status, statuses: statuses.text, history: history.tokens.sorted())
        }
        return answers
    }

    struct Answers: Equatable, Sendable {
        let statusCode: Int
        let statuses: String
        let history: [String]
    }
}

extension ImportFixture {
    /// Tells an upstream database of `customers` through a server of its own, stopped after;
    /// returns that server's answers about them.
    static func post(_ customers: [Customer], upstreamDatabase: TestDatabase, signer: APIJWTSigner) async throws -> [String: Answers] {
        try await withUpstream(upstreamDatabase, signer: signer) { api, _ in
            try await post(customers, to: api)
            return try await answers(api, customers.map(\.id))
        }
    }

    /// Signed transactions stored in `database` so far (read beside a running import).
    static func storedTransactions(_ database: TestDatabase) async throws -> Int {
        try await SignedDataFixtures.with(database) { store in Int(try await store.counts().transactions) }
    }
}
