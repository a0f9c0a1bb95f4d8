import Foundation
import Hummingbird
import NIOCore

/// A POST body read under `--max-body`, for every route that takes one.
enum PostedBody {
    case body(Data)
    /// Over the limit: answered 413 (`VerifyRoutes.tooLarge()`).
    case tooLarge
    /// The client stopped sending (truncated body, idle timeout): nothing to act on.
    case unreadable

    static func read(_ request: Request, maxBody: Int) async -> PostedBody {
        // A declared length over the limit is refused before any of the body is read.
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > maxBody {
            return .tooLarge
        }
        do {
            return .body(Data(try await request.body.collect(upTo: maxBody).readableBytesView))
        } catch is NIOTooManyBytesError {
            return .tooLarge   // chunked: refused as soon as the limit is passed
        } catch {
            return .unreadable
        }
    }
}
