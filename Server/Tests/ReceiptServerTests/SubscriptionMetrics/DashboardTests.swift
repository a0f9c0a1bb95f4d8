import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ReceiptService
import ReceiptStore
import Testing

/// The dashboard over the router: no figure without a dashboard token the store holds unrevoked
/// (none, a malformed one, a wrong secret, a revoked one: the sign-in form, 401); a valid token by
/// the sign-in form sets an HttpOnly, SameSite=Strict session cookie; with it (or as a bearer
/// token) the page holds the charts; a strict Content-Security-Policy on every page.
@Suite struct DashboardTests {
    @Test(arguments: TestDatabase.backends)
    func noFigureWithoutTheOperatorsToken(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let (token, revoked) = try await SignedDataFixtures.with(database) { store in
            let access = DashboardAccess(store: store)
            let revoked = try await access.create().token
            #expect(try await access.revoke(revoked))
            return (try await access.create().token, revoked)
        }
        let wrongSecret = String(token.dropLast(4)) + (token.hasSuffix("0000") ? "1111" : "0000")
        try await APISession.with(database) { api in
            let client = api.client
            for (cookie, bearer) in [
                (nil, nil), ("receipt_dashboard=\(revoked)", nil), ("receipt_dashboard=\(wrongSecret)", nil), ("receipt_dashboard=dsh_x", nil),
                (nil, "Bearer \(revoked)"), ("other=\(token)", nil),
            ] as [(String?, String?)] {
                let page = try await Self.get(client, "/dashboard?bundle=\(Synthetic.bundleID)", cookie: cookie, authorization: bearer)
                #expect(page.status == 401, "\(cookie ?? bearer ?? "none")")
                #expect(page.body.contains("id=\"sign-in\"") && !page.body.contains("<svg") && !page.body.contains("class=\"tile\""))
                #expect(page.csp.map(Self.isStrict) == true)
            }
            // Signing in: a wrong token is refused, the right one sets the cookie.
            let refused = try await Self.post(client, "token=\(wrongSecret)")
            #expect(refused.status == 401 && refused.cookie == nil)
            let signedIn = try await Self.post(client, "token=\(token)")
            #expect(signedIn.status == 200)
            let cookie = try #require(signedIn.cookie)
            #expect(cookie.hasPrefix("receipt_dashboard=\(token);"))
            for attribute in ["HttpOnly", "SameSite=Strict", "Path=/dashboard", "Max-Age=43200"] { #expect(cookie.contains(attribute)) }

            for (cookie, bearer) in [("receipt_dashboard=\(token)", nil), (nil, "Bearer \(token)")] as [(String?, String?)] {
                let page = try await Self.get(
                    client, "/dashboard?bundle=\(Synthetic.bundleID)&from=2026-01-01&to=2026-01-31", cookie: cookie, authorization: bearer)
                #expect(page.status == 200)
                #expect(page.body.contains("id=\"tiles\"") && page.body.components(separatedBy: "<svg").count - 1 == 4)
                #expect(page.body.contains("2026-01-01 to 2026-01-31 (31 days, UTC)"))
                #expect(page.csp.map(Self.isStrict) == true)
            }
            // A bad window is the form with the reason, no figure.
            let bad = try await Self.get(
                client, "/dashboard?bundle=\(Synthetic.bundleID)&from=2026-02-30&to=2026-03-01", cookie: "receipt_dashboard=\(token)")
            #expect(bad.status == 400 && bad.body.contains("id=\"problem\"") && !bad.body.contains("<svg"))
            // Markup in a parameter is shown as text.
            let hostile = try await Self.get(client, "/dashboard?bundle=%3Cscript%3Ex%3C/script%3E", cookie: "receipt_dashboard=\(token)")
            #expect(!hostile.body.contains("<script>") && hostile.body.contains("&lt;script&gt;"))
        }
    }

    struct Page {
        let status: Int
        let body: String
        let csp: String?
        let cookie: String?
    }

    /// No script, no image, no frame, styles only by hash, forms to this server only.
    static func isStrict(_ csp: String) -> Bool {
        csp.hasPrefix("default-src 'none'; style-src 'sha256-") && csp.contains("script-src 'none'") && csp.contains("form-action 'self'")
            && csp.contains("frame-ancestors 'none'") && !csp.contains("unsafe")
    }

    static func get(_ client: any TestClientProtocol, _ uri: String, cookie: String? = nil, authorization: String? = nil) async throws -> Page {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = cookie }
        if let authorization { headers[.authorization] = authorization }
        return try await client.execute(uri: uri, method: .get, headers: headers) { Self.page($0) }
    }

    static func post(_ client: any TestClientProtocol, _ form: String) async throws -> Page {
        try await client.execute(
            uri: "/dashboard/session", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: form)
        ) { Self.page($0) }
    }

    static func page(_ response: TestResponse) -> Page {
        Page(
            status: Int(response.status.code), body: String(buffer: response.body), csp: response.headers[.contentSecurityPolicy],
            cookie: response.headers[.setCookie])
    }
}
