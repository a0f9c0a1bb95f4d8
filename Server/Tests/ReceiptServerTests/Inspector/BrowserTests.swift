import AppReceipt
import Foundation
import Synchronization
import Testing
import X509Certificates

/// The inspector page in a real browser: headless Chromium drives `GET /` of a live server started
/// with `--root Examples/sample-root.der`, drops the sample receipt and a damaged copy on the page,
/// and reads the verdict, chain, purchases and rule from its DOM. Screenshots go to
/// `Server/.build/inspector-screenshots/` for a person to look at.
@Suite(.serialized) struct BrowserTests {
    static let screenshots = Fixtures.repositoryRoot.appendingPathComponent("Server/.build/inspector-screenshots")

    /// What the page shows, read from its DOM.
    static let summary = """
        JSON.stringify({
          state: document.getElementById('verdict').dataset.state,
          verdict: document.getElementById('verdict').textContent,
          message: document.getElementById('message').textContent,
          failureShown: document.getElementById('failure').checkVisibility(),
          curlShown: document.getElementById('curl-section').checkVisibility(),
          rule: document.getElementById('rule').textContent,
          failedCertificate: document.getElementById('failed-certificate').textContent,
          chain: [...document.querySelectorAll('#chain tbody tr')].map(r => [...r.cells].map(c => c.textContent)),
          failedRows: [...document.querySelectorAll('#chain tbody tr.failed')].map(r => r.cells[1].textContent),
          purchases: [...document.querySelectorAll('#purchases tbody tr')].map(r => [...r.cells].map(c => c.textContent)),
          fields: [...document.querySelectorAll('#fields tbody tr')].map(r => [...r.cells].map(c => c.textContent)),
          raw: document.getElementById('raw').textContent,
          curl: document.getElementById('curl').textContent
        })
        """

    @Test(.enabled(if: Chromium.shouldRun))
    func dropSampleAndDamagedReceipts() async throws {
        let sample = Fixtures.repositoryRoot.appendingPathComponent("Examples/sample-receipt.der")
        let root = Fixtures.repositoryRoot.appendingPathComponent("Examples/sample-root.der")
        let damaged = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-\(UUID().uuidString).der")
        try Data(InspectorTests.damagedSample()).write(to: damaged)
        defer { try? FileManager.default.removeItem(at: damaged) }

        let database = try await TestDatabase.make(.sqlite)
        let server = try await LiveServer.start(["--database", database.url, "--root", root.path])
        let browser = try await Chromium.start()
        defer {
            browser.stop()
            _ = server.terminate()
        }
        let pages = Mutex<[[String: Any]]>([])
        try await browser.withPage { page in
            try await page.call("Page.enable")
            try await page.call("Page.navigate", ["url": server.baseURL + "/"])
            try await page.waitUntil("document.readyState === 'complete' && !!document.getElementById('drop')")
            for (file, state, name) in [(sample, "valid", "valid"), (damaged, "invalid", "damaged")] {
                try await page.dropFile(file.path, on: "#drop")
                try await page.waitUntil("document.getElementById('verdict').dataset.state === '\(state)'")
                let text = try #require(try await page.evaluate(Self.summary) as? String)
                pages.withLock { $0.append(try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]) }
                try await page.screenshot(to: Self.screenshots.appendingPathComponent("inspector-\(name).png"))
            }
        }
        let (valid, refused) = try pages.withLock { pages in
            try #require(pages.count == 2)
            return (pages[0], pages[1])
        }

        // The sample: valid, its verified chain of three with validity and fingerprints, five purchases.
        let receipt = try AppReceipt([UInt8](Data(contentsOf: sample)))
        let verified = try receipt.validate(policy: .appStore(anchors: [TrustAnchor(derEncoded: [UInt8](Data(contentsOf: root)))]))
        #expect(valid["verdict"] as? String == "Valid" && valid["failureShown"] as? Bool == false, "no failure box for a valid receipt")
        #expect(valid["curlShown"] as? Bool == true)
        let chain = try #require(valid["chain"] as? [[String]])
        #expect(chain.map { $0[0] } == ["signer", "intermediate", "anchor"])
        #expect(chain.map { $0[1] } == verified.chain.map(\.subjectDescription))
        #expect(chain.map { $0[5].replacingOccurrences(of: ":", with: "").lowercased() } == verified.chain.map(\.fingerprint.description))
        #expect(chain.allSatisfy { $0[3].hasSuffix("Etc/GMT") && $0[4].hasSuffix("Etc/GMT") })
        let purchases = try #require(valid["purchases"] as? [[String]])
        #expect(purchases.count == 5)
        #expect(purchases.map { $0[1] } == receipt.inAppPurchases.map(\.transactionIdentifier))
        #expect(purchases.allSatisfy { $0[4].hasSuffix("Etc/GMT") && $0[5].hasSuffix("America/Los_Angeles") })
        #expect((valid["fields"] as? [[String]])?.contains(["receipt_creation_date", "2024-03-01 12:00:00 Etc/GMT",
                                                             "2024-03-01 04:00:00 America/Los_Angeles"]) == true)
        #expect((valid["raw"] as? String)?.contains("\"bundle_id\": \"com.example.receipts\"") == true)
        #expect((valid["curl"] as? String)?.hasPrefix("curl -s -X POST http://127.0.0.1:\(server.port)/verifyReceipt") == true)

        // The damaged copy: not valid, naming the rule and the signing certificate, as the library says.
        let damagedReceipt = try AppReceipt(try InspectorTests.damagedSample())
        let anchor = try TrustAnchor(derEncoded: [UInt8](Data(contentsOf: root)))
        let expected: ReceiptValidationError
        do {
            try damagedReceipt.validate(policy: .appStore(anchors: [anchor]))
            Issue.record("the damaged copy verified")
            return
        } catch {
            expected = error
        }
        #expect(refused["verdict"] as? String == "Not valid" && refused["failureShown"] as? Bool == true)
        #expect(refused["rule"] as? String == "signatureInvalid")
        #expect(refused["message"] as? String == RefusalHint.message(expected, time: .receiptCreation))
        #expect(refused["failedCertificate"] as? String == verified.chain[0].subjectDescription)
        #expect(refused["failedRows"] as? [String] == [verified.chain[0].subjectDescription])
        for name in ["inspector-valid.png", "inspector-damaged.png"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: Self.screenshots.appendingPathComponent(name).path)[.size] as? Int) ?? 0
            #expect(size > 10_000, "\(name): \(size) bytes")
        }
    }
}
