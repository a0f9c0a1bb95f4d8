import ReceiptService

/// The dashboard's pages, rendered on the server: no script at all, the style inline and allowed
/// by its hash, charts as inline SVG (`DashboardChart`), forms posting to this server only. The
/// sign-in page shows no figure.
enum DashboardPage {
    static let contentSecurityPolicy =
        "default-src 'none'; style-src '\(InspectorPage.sha256Source(style))'; script-src 'none'; img-src 'none'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// The window form's values.
    struct Form {
        var bundleID: String
        var environment: String
        var from: String
        var to: String
        var apps: [String]
    }

    static func document(title: String, _ body: String, head: String = "") -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        \(head)<title>\(escape(title)) · receipt-server</title>
        <style>\(style)</style>
        </head>
        <body>
        \(body)
        </body>
        </html>
        """
    }

    static func answer(_ html: String, httpStatus: Int) -> ServiceAnswer {
        var answer = ServiceAnswer(httpStatus: httpStatus, html, contentType: .html)
        answer.contentSecurityPolicy = contentSecurityPolicy
        return answer
    }

    /// The sign-in form (`POST /dashboard/session`); `refused`: a token was given and is not valid.
    static func signIn(refused: Bool, httpStatus: Int, note: String? = nil) -> ServiceAnswer {
        let message = note ?? (refused ? "That token is not a valid dashboard token (revoked, or never created)." : nil)
        return answer(
            document(
                title: "Sign in",
                """
                <main class="narrow">
                <h1>Subscriptions dashboard</h1>
                <p>Enter a dashboard token. The server's operator creates one with
                <code>receipt-server dashboard-token create</code>; it is kept in this browser for 12 hours.</p>
                \(message.map { #"<p class="problem" id="problem">\#(escape($0))</p>"# } ?? "")
                <form method="post" action="/dashboard/session" id="sign-in">
                <label for="token">Dashboard token</label>
                <input type="password" id="token" name="token" autocomplete="current-password" required spellcheck="false">
                <button type="submit">Sign in</button>
                </form>
                </main>
                """), httpStatus: httpStatus)
    }

    /// After signing in: the dashboard is one step away (the cookie is set on this answer).
    static let signedIn = answer(
        document(
            title: "Signed in", #"<main class="narrow"><h1>Signed in</h1><p><a href="/dashboard">Open the dashboard</a></p></main>"#,
            head: #"<meta http-equiv="refresh" content="0; url=/dashboard">"# + "\n"), httpStatus: 200)

    /// The dashboard of `days` (nil: only the form, with `problem`).
    static func charts(_ form: Form, days: [SubscriptionMetricsDay]?, problem: String?, httpStatus: Int) -> ServiceAnswer {
        var body = """
            <header>
            <h1>Subscriptions</h1>
            \(windowForm(form))
            </header>
            <main>
            """
        if let problem { body += #"<p class="problem" id="problem">\#(escape(problem))</p>"# }
        if let days { body += figures(form, days) }
        body += "</main>"
        return answer(document(title: "Subscriptions of \(form.bundleID)", body), httpStatus: httpStatus)
    }

    static func windowForm(_ form: Form) -> String {
        let options = form.apps.map { #"<option value="\#(escape($0))">"# }.joined()
        let environments = ["Production", "Sandbox"].map { name in
            #"<option\#(name == form.environment ? " selected" : "")>\#(name)</option>"#
        }.joined()
        return """
            <form method="get" action="/dashboard" id="window">
            <label>App <input name="bundle" list="apps" value="\(escape(form.bundleID))" required spellcheck="false"></label>
            <datalist id="apps">\(options)</datalist>
            <label>Environment <select name="environment">\(environments)</select></label>
            <label>From <input type="date" name="from" value="\(escape(form.from))" required></label>
            <label>To <input type="date" name="to" value="\(escape(form.to))" required></label>
            <button type="submit">Show</button>
            </form>
            """
    }

    /// HTML text (and attribute values in double quotes) with `& < > " '` escaped.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
