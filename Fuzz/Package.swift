// swift-tools-version:6.0
//
// libFuzzer harnesses for the receipt toolkit (DESIGN §9), a package of its own so that the root
// package carries no fuzzing flags. The harness logic lives in the root package's FuzzTargets
// library (shared with Tests/FuzzRegressionTests); the executables here only hand libFuzzer's
// input to it. Build and run them with Fuzz/run, which passes -sanitize=fuzzer,address:
//
//   Fuzz/run --list                       # der, pkcs7, certificate, receipt, jws, legacy, ocsp, tool
//   Fuzz/run der 300                      # five minutes of the DER harness
//   swift run --package-path Fuzz make-corpus   # regenerate Fuzz/corpus/ (deterministic)
import PackageDescription

let root: Target.Dependency = .product(name: "FuzzTargets", package: "swift-receipt")

let package = Package(
    name: "receipt-fuzz",
    dependencies: [
        .package(name: "swift-receipt", path: "..")
    ],
    targets: [
        // Calls libFuzzer's LLVMFuzzerRunDriver: links only with -sanitize=fuzzer.
        .target(name: "FuzzMain", path: "Harnesses/FuzzMain"),
        .executableTarget(name: "fuzz-der", dependencies: ["FuzzMain", root], path: "Harnesses/der"),
        .executableTarget(name: "fuzz-pkcs7", dependencies: ["FuzzMain", root], path: "Harnesses/pkcs7"),
        .executableTarget(name: "fuzz-certificate", dependencies: ["FuzzMain", root], path: "Harnesses/certificate"),
        .executableTarget(name: "fuzz-receipt", dependencies: ["FuzzMain", root], path: "Harnesses/receipt"),
        .executableTarget(name: "fuzz-jws", dependencies: ["FuzzMain", root], path: "Harnesses/jws"),
        .executableTarget(name: "fuzz-legacy", dependencies: ["FuzzMain", root], path: "Harnesses/legacy"),
        .executableTarget(name: "fuzz-ocsp", dependencies: ["FuzzMain", root], path: "Harnesses/ocsp"),

        // Plain executables (no sanitizer flags): the seed corpus generator and the tool driver.
        .executableTarget(name: "make-corpus", dependencies: [root], path: "Tools/make-corpus"),
        .executableTarget(
            name: "tool-fuzz", dependencies: [root, .product(name: "ReceiptTestSupport", package: "swift-receipt")], path: "Tools/tool-fuzz"),
    ]
)
