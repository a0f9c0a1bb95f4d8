import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import WSClient

/// Headless Chromium (Debian's `chromium`) on a loopback DevTools port, driven over the DevTools
/// protocol: one WebSocket to a page target, commands answered by id.
final class Chromium: Sendable {
    let process: Process
    let port: Int
    let profile: URL

    /// The browser executable, when installed.
    static let executable: URL? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].map(URL.init(fileURLWithPath:))
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// Browser tests run where Chromium is installed, and always under CI, where its absence fails them.
    static let shouldRun = executable != nil || Fixtures.isCI

    /// Starts the browser with a fresh profile and waits for its DevTools port.
    static func start() async throws -> Chromium {
        guard let executable else { throw UnexpectedAnswer(description: "chromium is not installed (Server/ci installs it)") }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = executable
        process.arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--disable-background-networking", "--disable-sync",
            "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--remote-allow-origins=*",
            "--user-data-dir=\(profile.path)", "--window-size=1280,1600", "about:blank",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let portFile = profile.appendingPathComponent("DevToolsActivePort")
        for _ in 0 ..< 600 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let line = text.split(separator: "\n").first,
                let port = Int(line)
            {
                return Chromium(process: process, port: port, profile: profile)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        if process.isRunning { process.terminate() }   // never an exited pid (LiveServer.kill())
        throw UnexpectedAnswer(description: "chromium did not open its DevTools port")
    }

    private init(process: Process, port: Int, profile: URL) {
        self.process = process
        self.port = port
        self.profile = profile
    }

    /// Stops the browser (this process and its children) and removes the profile.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: profile)
    }

    /// The WebSocket URL of the first page target (`GET /json/list`).
    func pageWebSocketURL() async throws -> String {
        let client = HTTPClient()
        defer { _ = client.shutdown() }
        let response = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/json/list"), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        let targets = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [[String: Any]] ?? []
        guard let url = targets.first(where: { $0["type"] as? String == "page" })?["webSocketDebuggerUrl"] as? String else {
            throw UnexpectedAnswer(description: "no page target in \(targets)")
        }
        return url
    }

    /// Connects to the page and runs `body` with a DevTools session until it returns.
    func withPage(_ body: @escaping @Sendable (inout DevToolsSession) async throws -> Void) async throws {
        let url = try await pageWebSocketURL()
        var logger = Logger(label: "devtools")
        logger.logLevel = .error
        try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 64 << 20), logger: logger) { inbound, outbound, _ in
            var session = DevToolsSession(messages: inbound.messages(maxSize: 64 << 20).makeAsyncIterator(), outbound: outbound)
            try await body(&session)
            try await outbound.close(.normalClosure, reason: nil)
        }
    }
}

/// Commands to one page over the DevTools protocol; events between answers are skipped.
struct DevToolsSession {
    var messages: WebSocketInboundMessageStream.AsyncIterator
    let outbound: WebSocketOutboundWriter
    var lastID = 0

    /// Sends `method` with `params` and returns its `result`; a protocol error throws.
    @discardableResult
    mutating func call(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
        lastID += 1
        let command: [String: Any] = ["id": lastID, "method": method, "params": params]
        try await outbound.write(.text(String(decoding: try JSONSerialization.data(withJSONObject: command), as: UTF8.self)))
        while let message = try await messages.next() {
            guard case .text(let text) = message,
                let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                object["id"] as? Int == lastID
            else { continue }
            if let error = object["error"] { throw UnexpectedAnswer(description: "\(method): \(error)") }
            return object["result"] as? [String: Any] ?? [:]
        }
        throw UnexpectedAnswer(description: "the browser closed the connection during \(method)")
    }

    /// The value of a JavaScript expression (JSON-compatible).
    mutating func evaluate(_ expression: String) async throws -> Any? {
        let result = try await call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let exception = result["exceptionDetails"] { throw UnexpectedAnswer(description: "\(expression): \(exception)") }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Polls `expression` until it is true, for at most `timeout`.
    mutating func waitUntil(_ expression: String, timeout: Duration = .seconds(20)) async throws {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < timeout {
            if try await evaluate(expression) as? Bool == true { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw UnexpectedAnswer(description: "timed out waiting for \(expression)")
    }

    /// Drops the file at `path` on the element `selector`, as a person dragging it from a file
    /// manager would: dragEnter, dragOver and drop at the element's centre, carrying the file.
    mutating func dropFile(_ path: String, on selector: String) async throws {
        let box =
            try await evaluate(
                "(() => { const r = document.querySelector('\(selector)').getBoundingClientRect(); "
                    + "return [r.x + r.width / 2, r.y + r.height / 2]; })()") as? [Double]
        guard let box, box.count == 2 else { throw UnexpectedAnswer(description: "\(selector) not found") }
        let data: [String: Any] = ["items": [] as [Any], "files": [path], "dragOperationsMask": 1]
        for type in ["dragEnter", "dragOver", "drop"] {
            try await call("Input.dispatchDragEvent", ["type": type, "x": box[0], "y": box[1], "data": data])
        }
    }

    /// A PNG of the whole page (as tall as its content, up to 12,000 px), written to `url`.
    mutating func screenshot(to url: URL) async throws {
        let size = try await call("Page.getLayoutMetrics")["cssContentSize"] as? [String: Any] ?? [:]
        var params: [String: Any] = ["format": "png", "captureBeyondViewport": true]
        if let width = size["width"] as? Double, let height = size["height"] as? Double {
            params["clip"] = ["x": 0, "y": 0, "width": width, "height": min(height, 12_000), "scale": 1]
        }
        let result = try await call("Page.captureScreenshot", params)
        guard let text = result["data"] as? String, let png = Data(base64Encoded: text) else {
            throw UnexpectedAnswer(description: "no screenshot data")
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try png.write(to: url)
    }

    /// Lays the page out at `width` × `height` CSS pixels, as a phone (touch, the viewport meta
    /// tag honoured) below 600 px.
    mutating func setViewport(width: Int, height: Int) async throws {
        try await call("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600])
    }

    /// Presses Ctrl+Enter in the focused element, as a person at the keyboard would.
    mutating func pressControlEnter() async throws {
        for type in ["keyDown", "keyUp"] {
            try await call(
                "Input.dispatchKeyEvent",
                [
                    "type": type, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13,
                    "nativeVirtualKeyCode": 13, "modifiers": 2,
                ])
        }
    }

    /// Clicks the middle of the element `selector` with the mouse.
    mutating func click(_ selector: String) async throws {
        let box =
            try await evaluate(
                "(() => { const e = document.querySelector('\(selector)'); e.scrollIntoView({block: 'center'}); "
                    + "const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()") as? [Double]
        guard let box, box.count == 2 else { throw UnexpectedAnswer(description: "\(selector) not found") }
        for type in ["mousePressed", "mouseReleased"] {
            try await call("Input.dispatchMouseEvent", ["type": type, "x": box[0], "y": box[1], "button": "left", "clickCount": 1])
        }
    }
}
