import CryptoPrimitives
import Foundation

/// The inspector page: one HTML document with its style and script inline (no external scripts,
/// fonts, images or CDNs: it works offline). The script fills the page from `POST /inspect` with
/// `textContent` only, never as markup, and the Content-Security-Policy allows exactly this
/// style and this script (by SHA-256) and requests to this server.
enum InspectorPage {
    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Receipt inspector · receipt-server</title>
        <style>\(style)</style>
        </head>
        <body>
        \(body)
        <script>\(script)</script>
        </body>
        </html>
        """

    static let contentSecurityPolicy =
        "default-src 'none'; style-src '\(sha256Source(style))'; script-src '\(sha256Source(script))'; connect-src 'self'; "
        + "img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

    /// `sha256-BASE64` of an inline element's text (CSP Level 2 §4.2.4).
    static func sha256Source(_ text: String) -> String {
        var hasher = SHA256()
        Array(text.utf8).withUnsafeBytes { hasher.update($0) }
        return "sha256-" + Data(hasher.finalize()).base64EncodedString()
    }
}
