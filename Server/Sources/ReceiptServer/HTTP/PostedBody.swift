import Foundation
import Hummingbird
import NIOCore
import ReceiptService

/// A POST body read under `--max-body`, for every route that takes one.
enum PostedBody {
    case body(Data)
    /// Over the limit: answered 413 (`ServiceAnswer.tooLarge`).
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

    /// The answer to a POST: `answer` of the body read whole under `maxBody`; 413 over it
    /// (`ServiceAnswer.tooLarge`); `unreadable` when the client stopped sending.
    static func answer(
        _ request: Request, maxBody: Int, unreadable: () -> ServiceAnswer, _ answer: (Data) async -> ServiceAnswer
    ) async -> ServiceAnswer {
        switch await read(request, maxBody: maxBody) {
        case .body(let body): return await answer(body)
        case .tooLarge: return .tooLarge
        case .unreadable: return unreadable()
        }
    }
}

extension ServiceAnswer {
    /// 413 for a body over `--max-body`, closing the connection (the rest of the body is not read).
    static var tooLarge: ServiceAnswer {
        ServiceAnswer(httpStatus: 413, #"{"error":"request body too large"}"#).closing()
    }
}
