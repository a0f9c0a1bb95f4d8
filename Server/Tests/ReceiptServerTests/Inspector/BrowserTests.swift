import AppReceipt
import Foundation
@testable import ReceiptService
import Synchronization
import Testing
import X509Certificates

/// The inspector page in a real browser: headless Chromium drives `GET /` of a live server started
/// with `--root Examples/sample-root.der`, drops the sample receipt and a damaged copy on the page,
/// and reads the verdict, chain, purchases and rule from its DOM; then, at a desktop's 1280 px and a
/// phone's 390 px, checks that nothing is wider than the window and reads the summary line, the
/// badges, the timeline, a notification's nested tokens and the controls. Screenshots go to
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
          createdTitle: [...document.querySelectorAll('#fields tbody tr')].find(r => r.cells[0].textContent === 'receipt_creation_date')
            ?.querySelector('time')?.title,
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
        #expect(chain.allSatisfy { Self.isShortDate($0[3]) && Self.isShortDate($0[4]) })
        let purchases = try #require(valid["purchases"] as? [[String]])
        #expect(purchases.count == 5)
        #expect(
            purchases.map { $0[5] }
                == receipt.inAppPurchases.map { purchase in
                    let original = purchase.originalTransactionIdentifier ?? purchase.transactionIdentifier
                    return purchase.transactionIdentifier + (original == purchase.transactionIdentifier ? "" : "original " + original)
                }, "the original transaction under a renewal's own")
        #expect(purchases.allSatisfy { Self.isShortDate($0[2]) })
        #expect((valid["fields"] as? [[String]])?.contains(["receipt_creation_date", "2024-03-01 12:00Z"]) == true)
        #expect(valid["createdTitle"] as? String == "UTC 2024-03-01 12:00:00Z\nLos Angeles 2024-03-01 04:00:00 PST")
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
        #expect(refused["message"] as? String == RefusalHint.message(expected, time: .receiptCreation, switches: .receiptServer))
        #expect(refused["failedCertificate"] as? String == verified.chain[0].subjectDescription)
        #expect(refused["failedRows"] as? [String] == [verified.chain[0].subjectDescription])
        for name in ["inspector-valid.png", "inspector-damaged.png"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: Self.screenshots.appendingPathComponent(name).path)[.size] as? Int) ?? 0
            #expect(size > 10_000, "\(name): \(size) bytes")
        }
    }

    /// `2024-03-01 12:00Z`: the page's short UTC dates.
    static func isShortDate(_ text: String) -> Bool {
        text.wholeMatch(of: #/\d{4}-\d\d-\d\d \d\d:\d\dZ/#) != nil
    }

    /// What fits and what a person sees at a glance, read from the DOM: the window's width, the
    /// page's, every element wider than the window, the summary line, the badges per purchase, the
    /// timelines, the nested tokens' headings and the visible dates with their titles.
    static let glance = """
        (() => {
          const width = window.innerWidth;
          const right = (e) => e.getBoundingClientRect().right;
          return JSON.stringify({
            innerWidth: width,
            scrollWidth: document.documentElement.scrollWidth,
            wide: [...document.querySelectorAll('*')].filter(e => right(e) > width + 1)
              .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' + Math.round(right(e))),
            summary: document.getElementById('summary').textContent,
            badges: [...document.querySelectorAll('#purchases tbody tr')]
              .map(r => [r.cells[5].firstChild.firstChild.textContent, [...r.cells[1].querySelectorAll('.badge')].map(b => b.textContent)]),
            timelines: [...document.querySelectorAll('#subscriptions figure')].map(f => ({
              caption: f.querySelector('figcaption').textContent,
              periods: f.querySelectorAll('svg.timeline rect.period').length,
              width: f.querySelector('svg.timeline').getBoundingClientRect().width })),
            nested: [...document.querySelectorAll('#nested h2')].map(h => h.firstChild.textContent.trim()),
            nestedBadges: [...document.querySelectorAll('#nested h2')].map(h => [...h.querySelectorAll('.badge')].map(b => b.textContent)),
            dates: [...document.querySelectorAll('#result time')].filter(t => t.checkVisibility()).map(t => [t.textContent, t.title])
          });
        })()
        """

    /// The sample receipt at 1280 px (dropped) and at 390 px (pasted, Ctrl+Enter), then at 390 px
    /// the Copy button's label coming back, a notification with nested tokens, the Los Angeles
    /// toggle and Clear. Nothing may be wider than the window at either width.
    @Test(.enabled(if: Chromium.shouldRun))
    func glanceAtDesktopAndPhoneWidths() async throws {
        let sample = Fixtures.repositoryRoot.appendingPathComponent("Examples/sample-receipt.der")
        let root = Fixtures.repositoryRoot.appendingPathComponent("Examples/sample-root.der")
        let base64 = try Data(contentsOf: sample).base64EncodedString()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let notification = SyntheticNotifications.token(
            "DID_RENEW", signedDate: now,
            transaction: SyntheticNotifications.Transaction(
                transactionId: "22", originalTransactionId: "21", purchaseDate: now - 86_400_000,
                expiresDate: now + 29 * 86_400_000, signedDate: now),
            renewal: SyntheticNotifications.Renewal(originalTransactionId: "21", signedDate: now))

        let database = try await TestDatabase.make(.sqlite)
        let server = try await LiveServer.start(["--database", database.url, "--root", root.path])
        let browser = try await Chromium.start()
        defer {
            browser.stop()
            _ = server.terminate()
        }
        let seen = Mutex<[String: Any]>([:])
        try await browser.withPage { page in
            func read(_ name: String) async throws {
                let text = try #require(try await page.evaluate(Self.glance) as? String)
                seen.withLock { $0[name] = try? JSONSerialization.jsonObject(with: Data(text.utf8)) }
                try await page.screenshot(to: Self.screenshots.appendingPathComponent("inspector-\(name).png"))
            }
            try await page.call("Page.enable")
            for width in [1280, 390] {
                try await page.setViewport(width: width, height: 900)
                try await page.call("Page.navigate", ["url": server.baseURL + "/"])
                try await page.waitUntil("document.readyState === 'complete' && !!document.getElementById('drop')")
                if width == 1280 {
                    try await page.dropFile(sample.path, on: "#drop")
                } else {
                    _ = try await page.evaluate(
                        "document.getElementById('paste').value = '\(base64)'; document.getElementById('paste').focus(); true")
                    try await page.pressControlEnter()
                }
                try await page.waitUntil("document.querySelectorAll('#subscriptions svg.timeline rect.period').length > 0")
                try await read("\(width)")
            }

            try await page.click("#copy-curl")
            try await page.waitUntil("document.getElementById('copy-curl').textContent !== 'Copy'", timeout: .seconds(5))
            let copied = ContinuousClock.now
            let label = try await page.evaluate("document.getElementById('copy-curl').textContent") as? String ?? ""
            try await page.waitUntil("document.getElementById('copy-curl').textContent === 'Copy'", timeout: .seconds(5))
            let waited = String((ContinuousClock.now - copied).components.seconds)
            seen.withLock { $0["copy"] = [label, waited] }

            _ = try await page.evaluate("document.getElementById('paste').value = '\(notification)'; document.getElementById('paste').focus(); true")
            try await page.pressControlEnter()
            try await page.waitUntil("document.querySelectorAll('#nested table').length === 2")
            try await read("notification-390")
            try await page.click("#zone-la")
            let losAngeles =
                try await page.evaluate("JSON.stringify([...document.querySelectorAll('#nested time')].map(t => t.textContent))")
                as? String ?? "[]"
            try await page.click("#clear")
            let cleared =
                try await page.evaluate("document.getElementById('result').hidden && document.getElementById('paste').value === ''")
                as? Bool ?? false
            seen.withLock {
                $0["losAngeles"] = try? JSONSerialization.jsonObject(with: Data(losAngeles.utf8))
                $0["cleared"] = cleared
            }
        }
        let pages = seen.withLock { $0 }

        for width in [1280, 390] {
            let page = try #require(pages["\(width)"] as? [String: Any])
            #expect(page["innerWidth"] as? Int == width)
            #expect((page["scrollWidth"] as? Int ?? .max) <= width, "\(width) px: the page scrolls sideways")
            #expect(page["wide"] as? [String] == [], "\(width) px: wider than the window")
            #expect(page["summary"] as? String == "5 purchases, 1 subscription, none active, 1 refunded")
            let badges = Dictionary(
                uniqueKeysWithValues: (page["badges"] as? [[Any]] ?? []).map { ($0[0] as? String ?? "", $0[1] as? [String] ?? []) })
            #expect(
                badges == [
                    "100000000000005": [], "100000000000004": ["refunded"], "100000000000001": ["expired", "trial"],
                    "100000000000002": ["expired"], "100000000000003": ["expired"],
                ], "\(width) px")
            let timelines = try #require(page["timelines"] as? [[String: Any]])
            #expect(timelines.count == 1 && timelines.first?["periods"] as? Int == 3, "\(width) px")
            #expect((timelines.first?["caption"] as? String)?.contains("original transaction 100000000000001") == true)
            let drawn = timelines.first?["width"] as? Double ?? 0
            #expect(drawn > Double(width) / 2 && drawn <= Double(width), "\(width) px: a timeline \(drawn) px wide")
            let dates = try #require(page["dates"] as? [[String]])
            #expect(dates.count > 10 && dates.allSatisfy { Self.isShortDate($0[0]) && $0[1].contains("\nLos Angeles ") }, "\(width) px")
        }
        let copy = try #require(pages["copy"] as? [String])
        #expect(["Copied", "Selected: press Ctrl+C"].contains(copy[0]) && Int(copy[1]).map { $0 <= 3 } == true, "\(copy)")

        let notified = try #require(pages["notification-390"] as? [String: Any])
        #expect((notified["scrollWidth"] as? Int ?? .max) <= 390 && notified["wide"] as? [String] == [])
        #expect(notified["nested"] as? [String] == ["signedRenewalInfo", "signedTransactionInfo"])
        #expect(notified["nestedBadges"] as? [[String]] == [[], ["active"]])
        #expect((notified["summary"] as? String)?.hasPrefix("1 purchase, 1 subscription, 1 active until ") == true)
        let pacific = try #require(pages["losAngeles"] as? [String])
        #expect(!pacific.isEmpty && pacific.allSatisfy { $0.hasSuffix(" PST") || $0.hasSuffix(" PDT") }, "\(pacific)")
        #expect(pages["cleared"] as? Bool == true)
        for name in ["1280", "390", "notification-390"] {
            let size =
                (try? FileManager.default.attributesOfItem(atPath: Self.screenshots.appendingPathComponent("inspector-\(name).png").path)[.size]
                    as? Int) ?? 0
            #expect(size > 10_000, "\(name): \(size) bytes")
        }
    }
}
