/// What a `JSONReader`'s visitors throw: a decoder's own error type, able to carry the reader's
/// `JSONError`. Typed errors all the way (Embedded Swift has no `any Error`): a payload decoder
/// reads with `JSONReader<ItsError>`, and a syntax error surfaces as `ItsError(jsonError)`.
package protocol JSONReadFailure: Error {
    /// Wraps a syntax or bounds error of the reader.
    init(_ error: JSONError)
}

extension JSONError: JSONReadFailure {
    /// The error itself: a reader that only reads JSON throws `JSONError`.
    package init(_ error: JSONError) { self = error }
}
