import Foundation
import HummingbirdTesting
import Testing

/// For every fixture receipt, the server's `receipt` is exactly `receipt verify --json`'s, plus
/// `request_date`, `request_date_ms` and `request_date_pst` (DESIGN §12). The root package's
/// `receipt` tool is the one `swift test` built at the repository root (`.ci/run` runs that first);
/// `RECEIPT_TOOL` names another.
@Suite(.enabled(if: Fixtures.shouldRun))
struct FixtureEqualityTests {
    static var toolPath: String? {
        if let path = ProcessInfo.processInfo.environment["RECEIPT_TOOL"] { return path }
        let built = Fixtures.repositoryRoot.appendingPathComponent(".build/debug/receipt").path
        return FileManager.default.isExecutableFile(atPath: built) ? built : nil
    }

    /// `receipt verify FILE --json [--policy xcode]`'s output, parsed.
    static func tool(_ name: String, xcode: Bool) async throws -> [String: Any] {
        guard let tool = toolPath else {
            throw UnexpectedAnswer(description: "the receipt tool is not built: run `swift build` at the repository root (or set RECEIPT_TOOL)")
        }
        let arguments =
            ["verify", Fixtures.directory.appendingPathComponent("receipts/\(name).der").path, "--json"]
            + (xcode ? ["--policy", "xcode"] : [])
        let (status, data) = try await runProcess(URL(fileURLWithPath: tool), arguments)
        #expect(status == 0, "receipt verify \(name)")
        return try JSONAnswer.object(data)
    }

    @Test(arguments: Fixtures.receipts.map(\.name))
    func receiptEqualsToolOutput(_ name: String) async throws {
        let fixture = try #require(Fixtures.receipts.first { $0.name == name })
        let expected = try await Self.tool(name, xcode: fixture.xcode)
        let bytes = try Fixtures.bytes("receipts/\(name).der")
        let database = try await TestDatabase.make(.sqlite)
        // Apple's root (no --root), Xcode receipts allowed at the sandbox endpoint.
        let configuration = TestServer.configuration(database, allowXcode: true, roots: [])
        let before = Date()
        let answer = try JSONAnswer.object(
            await TestServer.with(configuration) { client in
                try await client.verifyText(Synthetic.body(bytes), sandbox: fixture.sandbox)
            })
        let after = Date()
        #expect(try JSONAnswer.status(answer) == 0)
        #expect(answer["environment"] as? String == expected["environment"] as? String)

        var receipt = try #require(answer["receipt"] as? [String: Any])
        let requestMilliseconds = try #require((receipt.removeValue(forKey: "request_date_ms") as? String).flatMap { Int64($0) })
        let requestDate = try #require(receipt.removeValue(forKey: "request_date") as? String)
        let requestPacific = try #require(receipt.removeValue(forKey: "request_date_pst") as? String)
        let expectedReceipt = try #require(expected["receipt"] as? [String: Any])
        #expect(NSDictionary(dictionary: receipt).isEqual(to: expectedReceipt), "\(name): receipt differs from receipt verify --json")

        // The request dates describe one instant between sending and answering.
        #expect(Int64(before.timeIntervalSince1970 * 1000) - 1000 <= requestMilliseconds)
        #expect(requestMilliseconds <= Int64(after.timeIntervalSince1970 * 1000) + 1000)
        #expect(requestDate.hasSuffix(" Etc/GMT") && requestPacific.hasSuffix(" America/Los_Angeles"))
        let gmt = DateFormatter()
        gmt.locale = Locale(identifier: "en_US_POSIX")
        gmt.timeZone = TimeZone(identifier: "UTC")
        gmt.dateFormat = "yyyy-MM-dd HH:mm:ss"
        #expect(gmt.string(from: Date(timeIntervalSince1970: Double(requestMilliseconds / 1000))) + " Etc/GMT" == requestDate)
        gmt.timeZone = TimeZone(identifier: "America/Los_Angeles")
        #expect(gmt.string(from: Date(timeIntervalSince1970: Double(requestMilliseconds / 1000))) + " America/Los_Angeles" == requestPacific)

        // Each fixture holds subscriptions: latest_receipt_info lists its in-app purchases of them.
        let inApp = try #require(expectedReceipt["in_app"] as? [[String: Any]])
        let latest = try #require(answer["latest_receipt_info"] as? [[String: Any]])
        let subscriptionIDs = Set(inApp.filter { $0["expires_date"] != nil }.compactMap { $0["transaction_id"] as? String })
        #expect(Set(latest.compactMap { $0["transaction_id"] as? String }) == subscriptionIDs)
        for entry in latest {
            let id = entry["transaction_id"] as? String
            let original = try #require(inApp.first { $0["transaction_id"] as? String == id })
            #expect(NSDictionary(dictionary: entry).isEqual(to: original), "\(name): latest_receipt_info entry \(id ?? "?")")
        }
        #expect(answer["latest_receipt"] as? String == Data(bytes).base64EncodedString())
    }
}
