import Foundation
import Synchronization
import Testing

/// The dashboard in headless Chromium, over the 300 scripted customers: the sign-in page shows no
/// figure; after signing in with a token from `receipt-server dashboard-token create` the page
/// shows the tiles (equal to the script's truth) and the charts, nothing wider than the window at
/// 1280 px and 390 px, the session cookie out of the page's reach (HttpOnly). Screenshots go to
/// `Server/.build/dashboard-screenshots/` for a person to look at.
@Suite(.serialized) struct DashboardBrowserTests {
    static let screenshots = Fixtures.repositoryRoot.appendingPathComponent("Server/.build/dashboard-screenshots")

    static let read = """
        JSON.stringify({
          signIn: !!document.getElementById('sign-in'), svgs: document.querySelectorAll('svg').length,
          tiles: [...document.querySelectorAll('.tile')].map(t => [t.id, t.querySelector('.value').textContent]),
          figures: document.querySelectorAll('.tile, svg, table').length, cookie: document.cookie,
          scope: document.getElementById('scope')?.textContent ?? '',
          wider: document.documentElement.scrollWidth > window.innerWidth,
          charts: [...document.querySelectorAll('figure')].map(f => [f.id, f.getBoundingClientRect().width])
        })
        """

    @Test(.enabled(if: Chromium.shouldRun))
    func signInThenReadTheCharts() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let script = SubscriptionTruthTests.script
        try await APISession.with(
            database,
            configure: {
                $0.keyRate = 1_000_000; $0.keyBurst = 1_000_000
            }
        ) { api in
            try await SubscriptionTruthTests.deliver(try await SubscriptionTruthTests.tokens.value, api)
        }
        let created = try await LiveServer.run(["dashboard-token", "create", "--database", database.url])
        let token = try #require((try JSONSerialization.jsonObject(with: Data(created.output.utf8)) as? [String: String])?["token"])
        let server = try await LiveServer.start(["--database", database.url, "--app", Synthetic.bundleID])
        let browser = try await Chromium.start()
        defer {
            browser.stop()
            _ = server.terminate()
        }
        let from = ScriptedCustomers.date(script.firstDay), to = ScriptedCustomers.date(script.lastDay)
        let reads = Mutex<[String: String]>([:])
        try await browser.withPage { page in
            func read(_ name: String) async throws {
                let text = try #require(try await page.evaluate(Self.read) as? String)
                reads.withLock { $0[name] = text }
            }
            try await page.call("Page.enable")
            try await page.setViewport(width: 1280, height: 900)
            try await page.call("Page.navigate", ["url": server.baseURL + "/dashboard"])
            try await page.waitUntil("document.readyState === 'complete' && !!document.getElementById('sign-in')")
            try await read("signIn")
            try await page.screenshot(to: Self.screenshots.appendingPathComponent("dashboard-sign-in.png"))
            _ = try await page.evaluate("document.getElementById('token').value = '\(token)'; document.getElementById('sign-in').submit(); 1")
            try await page.waitUntil("location.pathname === '/dashboard' && !!document.getElementById('window')")
            try await page.call("Page.navigate", ["url": server.baseURL + "/dashboard?from=\(from)&to=\(to)"])
            try await page.waitUntil("document.readyState === 'complete' && !!document.getElementById('tiles')")
            for width in [1280, 390] {
                try await page.setViewport(width: width, height: 900)
                try await page.waitUntil("window.innerWidth === \(width)")
                try await read("charts-\(width)")
                try await page.screenshot(to: Self.screenshots.appendingPathComponent("dashboard-\(width).png"))
            }
        }
        let texts = reads.withLock { $0 }
        func object(_ name: String) throws -> [String: Any] {
            let text = try #require(texts[name])
            return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }
        let (signIn, wide, narrow) = (try object("signIn"), try object("charts-1280"), try object("charts-390"))
        #expect(signIn["signIn"] as? Bool == true && signIn["figures"] as? Int == 0)
        let expected = script.expectedDays()
        for read in [wide, narrow] {
            #expect(read["cookie"] as? String == "", "the session cookie is HttpOnly")
            #expect(read["wider"] as? Bool == false, "nothing wider than the window")
            #expect(read["svgs"] as? Int == 6, "actives, MRR in two currencies, new vs churned, trials, refunds")
            #expect((read["scope"] as? String)?.contains("\(from) to \(to) (90 days, UTC)") == true)
            let tiles = Dictionary(uniqueKeysWithValues: (read["tiles"] as? [[String]] ?? []).map { ($0[0], $0[1]) })
            #expect(tiles["tile-active"] == String(expected.last!.active))
            #expect(tiles["tile-new"] == String(expected.reduce(0) { $0 + $1.new }))
            #expect(tiles["tile-churned"] == String(expected.reduce(0) { $0 + $1.expirations }))
            #expect(tiles["tile-refunds"] == String(expected.reduce(0) { $0 + $1.refunds }))
        }
        // Two charts a row on a desktop, one a row on a phone.
        let wideCharts = try #require(wide["charts"] as? [[Any]]).compactMap { $0[1] as? Double }
        let narrowCharts = try #require(narrow["charts"] as? [[Any]]).compactMap { $0[1] as? Double }
        #expect(wideCharts.allSatisfy { $0 > 500 && $0 < 700 } && narrowCharts.allSatisfy { $0 > 330 && $0 <= 390 })
    }
}
