extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a closure with a typed error (the standard library's version is
    /// `rethrows`, which erases the type). For this package's modules only.
    @inlinable
    package func withRawBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = withUnsafeBytes { raw in Result { () throws(E) -> R in try body(raw) } }
        return try result.get()
    }
}
