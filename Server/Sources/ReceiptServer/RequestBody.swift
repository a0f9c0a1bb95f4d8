import Hummingbird
import NIOCore

/// A POST body read within `--max-body`: refused before reading when the declared length is over
/// the limit, and as soon as a chunked body passes it.
enum RequestBody {
    case body(ByteBuffer)
    /// HTTP 413.
    case tooLarge
    /// The client stopped sending (truncated body, idle timeout).
    case unreadable

    static func collect(_ request: Request, maxBody: Int) async -> RequestBody {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > maxBody { return .tooLarge }
        do {
            return .body(try await request.body.collect(upTo: maxBody))
        } catch is NIOTooManyBytesError {
            return .tooLarge
        } catch {
            return .unreadable
        }
    }
}
