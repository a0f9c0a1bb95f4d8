// libFuzzer harness `ocsp`: the invariants are in Sources/FuzzTargets (Harness.ocsp), shared with
// Tests/FuzzRegressionTests. Built by Fuzz/run with -sanitize=fuzzer,address.
import FuzzMain
import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Harness.ocsp.fuzz(data, size)
    return 0
}

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}
