import AsyncHTTPClient
import Foundation
import NIOCore

/// One attempt of a request: the request raced against the policy's time, its body read up to the
/// policy's size, its status sorted into an answer, a failure to retry, or a final one.
extension AppStoreServerAPIClient {
    /// What one attempt came to.
    enum AttemptFailure: Error {
        case final(AppStoreServerAPIClientError)
        case retry(AppStoreServerAPIClientError, retryAfter: Duration?)

        /// No usable answer (a timeout, a connection or a body cut short): tried again.
        static func unavailable(_ reason: String, httpStatus: Int? = nil) -> AttemptFailure {
            .retry(AppStoreServerAPIClientError(.unavailable, httpStatus: httpStatus, reason: reason), retryAfter: nil)
        }
    }

    /// One request, raced against `requestTimeout` (connection, head and body together).
    func attempt(_ path: String) async -> Result<ByteBuffer, AttemptFailure> {
        let endpoint = Self.endpoint(path)
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .GET
        request.headers.add(name: "Authorization", value: "Bearer " + tokens.token())
        request.headers.add(name: "User-Agent", value: "receipt-server-import")
        request.headers.add(name: "Accept", value: "application/json")
        let (http, policy, built) = (self.http, self.policy, request)
        return await withTaskGroup(of: Result<ByteBuffer, AttemptFailure>?.self) { group in
            group.addTask {
                do {
                    let response = try await http.execute(built, timeout: .nanoseconds(Int64(policy.requestTimeout.nanoseconds)))
                    return await Self.read(response, endpoint: endpoint, policy: policy)
                } catch {
                    return Task.isCancelled ? nil : .failure(.unavailable("\(endpoint): \(Self.describe(error))"))
                }
            }
            group.addTask {
                try? await Task.sleep(for: policy.requestTimeout)
                return Task.isCancelled ? nil : .failure(.unavailable("\(endpoint): no answer within \(policy.requestTimeout)"))
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(.final(AppStoreServerAPIClientError(.unavailable, reason: "\(endpoint): cancelled")))
        }
    }

    /// A response's body (bounded) and what its status means.
    static func read(_ response: HTTPClientResponse, endpoint: String, policy: AppStoreServerAPIClientPolicy) async -> Result<
        ByteBuffer, AttemptFailure
    > {
        let status = Int(response.status.code)
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: policy.maxResponseBytes)
        } catch is NIOTooManyBytesError {
            return .failure(
                .final(
                    AppStoreServerAPIClientError(
                        .malformed, httpStatus: status, reason: "\(endpoint): answer larger than \(policy.maxResponseBytes) bytes")))
        } catch {
            return .failure(.unavailable("\(endpoint): \(describe(error))", httpStatus: status))
        }
        if status == 200 { return .success(body) }
        let code = try? JSONDecoder().decode(ErrorBody.self, from: Data(body.readableBytesView)).errorCode
        let error = AppStoreServerAPIClientError(
            (400 ..< 500).contains(status) && status != 429 ? .refused : .unavailable, httpStatus: status, errorCode: code,
            reason: "\(endpoint): HTTP \(status)" + (code.map { " (errorCode \($0))" } ?? ""))
        switch status {
        case 429: return .failure(.retry(error, retryAfter: policy.retryAfter(response.headers.first(name: "Retry-After"))))
        case 500 ..< 600: return .failure(.retry(error, retryAfter: nil))
        default: return .failure(.final(error))
        }
    }

    /// The endpoint of a path for messages: its path without the query.
    static func endpoint(_ path: String) -> String {
        String(path.prefix { $0 != "?" })
    }

    /// An error without a response, in a few words (never the request: it holds the token).
    static func describe(_ error: any Error) -> String {
        let text = String(String(describing: error).map { $0.isNewline ? " " : $0 })
        return text.count <= 200 ? text : String(text.prefix(199)) + "…"
    }

    /// A transaction id as a path segment: digits only.
    static func checked(_ transactionID: String) throws(AppStoreServerAPIClientError) -> String {
        guard (1 ... 32).contains(transactionID.utf8.count), transactionID.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw AppStoreServerAPIClientError(.refused, reason: "not a transaction id (1 to 32 digits)")
        }
        return transactionID
    }

    /// A query value with everything but RFC 3986's unreserved characters percent-encoded.
    static func percentEncoded(_ value: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}

extension Duration {
    /// The whole duration in nanoseconds (saturating).
    var nanoseconds: Double {
        Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }
}
