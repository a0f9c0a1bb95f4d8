import Foundation
import Hummingbird
import ReceiptService

/// `GET /dashboard`: the subscription metrics of one app as charts (`DashboardPage`), for the
/// operator only. Without a valid dashboard token (`receipt-server dashboard-token create`) it
/// answers the sign-in form, which holds no figure. The token comes as the `receipt_dashboard`
/// cookie, which `POST /dashboard/session` sets from the form (HttpOnly, SameSite=Strict, path
/// `/dashboard`, 12 hours), or as `Authorization: Bearer dsh_…` (curl).
struct DashboardController {
    let dashboard: SubscriptionDashboard
    let maxBody: Int

    static let cookie = "receipt_dashboard"
    /// How long the browser keeps the session cookie.
    static let cookieSeconds = 12 * 3600

    var endpoints: RouteCollection<ServerRequestContext> {
        RouteCollection(context: ServerRequestContext.self)
            .get("/dashboard") { request, _ in await page(request) }
            .post("/dashboard/session") { request, _ in await signIn(request) }
    }

    func page(_ request: Request) async -> ServiceAnswer {
        let token = Self.bearer(request.headers[.authorization]) ?? Self.cookieValue(request.headers[.cookie])
        switch await dashboard.access.decide(token) {
        case .refused: return DashboardPage.signIn(refused: token != nil, httpStatus: 401)
        case .storageUnavailable: return DashboardPage.signIn(refused: false, httpStatus: 503, note: "Storage is unavailable; try again.")
        case .admitted: break
        }
        let query = AppStoreAPIController.query(request)
        func value(_ name: String) -> String? { query.last { $0.name == name }?.value }
        let apps = await dashboard.registeredApps()
        let today = dashboard.today()
        var form = DashboardPage.Form(
            bundleID: value("bundle") ?? apps.first ?? "", environment: value("environment") ?? "Production",
            from: value("from") ?? UTCDay.format(max(0, today - 89)), to: value("to") ?? UTCDay.format(today), apps: apps)
        guard ["Production", "Sandbox"].contains(form.environment) else {
            form.environment = "Production"
            return DashboardPage.charts(form, days: nil, problem: "The environment is Production or Sandbox.", httpStatus: 400)
        }
        guard !form.bundleID.isEmpty else { return DashboardPage.charts(form, days: nil, problem: "Choose an app (its bundle id).", httpStatus: 200) }
        let window: MetricsWindowRequest
        do throws(MetricsWindowRequest.Refusal) {
            window = try MetricsWindowRequest(from: form.from, to: form.to)
        } catch {
            return DashboardPage.charts(form, days: nil, problem: error.description, httpStatus: 400)
        }
        do {
            let days = try await dashboard.metrics.days(window, bundleID: form.bundleID, environment: form.environment)
            return DashboardPage.charts(form, days: days, problem: nil, httpStatus: 200)
        } catch {
            return DashboardPage.charts(form, days: nil, problem: "Storage is unavailable; try again.", httpStatus: 503)
        }
    }

    /// The sign-in form's post: a valid token sets the session cookie and leads to the dashboard.
    func signIn(_ request: Request) async -> ServiceAnswer {
        await PostedBody.answer(request, maxBody: min(maxBody, 4096), unreadable: { DashboardPage.signIn(refused: true, httpStatus: 400) }) {
            body in
            let token = Self.formValue(body, "token")
            switch await dashboard.access.decide(token) {
            case .refused: return DashboardPage.signIn(refused: true, httpStatus: 401)
            case .storageUnavailable: return DashboardPage.signIn(refused: false, httpStatus: 503, note: "Storage is unavailable; try again.")
            case .admitted:
                var answer = DashboardPage.signedIn
                answer.setCookie = "\(Self.cookie)=\(token ?? ""); Path=/dashboard; Max-Age=\(Self.cookieSeconds); HttpOnly; SameSite=Strict"
                return answer
            }
        }
    }

    /// The token of `Authorization: Bearer TOKEN`.
    static func bearer(_ header: String?) -> String? {
        guard let header, header.hasPrefix("Bearer ") else { return nil }
        return String(header.dropFirst("Bearer ".count))
    }

    /// The value of the dashboard cookie in a `Cookie` header (RFC 6265 §5.4: `name=value; …`).
    static func cookieValue(_ header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == cookie { return String(parts[1]) }
        }
        return nil
    }

    /// A member of an `application/x-www-form-urlencoded` body (WHATWG URL §5.1).
    static func formValue(_ body: Data, _ name: String) -> String? {
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == name else { continue }
            return parts[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        return nil
    }
}
