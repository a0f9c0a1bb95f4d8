// The libFuzzer driver for the harness executables.
//
// SwiftPM links an executable target's entry point as `main` itself, so libFuzzer's own `main`
// is never pulled from its archive; each harness's `@main` calls `LLVMFuzzerRunDriver` instead
// (libFuzzer's documented entry for that case), which only exists when the executable is linked
// with `-sanitize=fuzzer`. That is why these targets build only through `Fuzz/run`.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

public typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: FuzzCallback
) -> CInt

/// Runs libFuzzer with the process's arguments over `callback` (`LLVMFuzzerTestOneInput`).
public func runLibFuzzer(_ callback: FuzzCallback) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
}
