// swift-tools-version:6.1
//
// Benchmarks for the receipt toolkit, side by side with OpenSSL's libcrypto and
// swift-asn1/swift-certificates/swift-crypto (DESIGN §8). A package of its own so that the
// root package stays dependency-free.
//
//   Benchmarks/setup                                             # libssl-dev if missing
//   swift run -c release --package-path Benchmarks compare        # interleaved comparison table
//   swift run -c release --package-path Benchmarks differential   # bit-flip sweep against OpenSSL's CMS_verify
//   swift package --package-path Benchmarks benchmark             # package-benchmark suites
import PackageDescription

let package = Package(
    name: "receipt-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-receipt", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // The system's libcrypto (OpenSSL 3): headers from libssl-dev.
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),

        // Every case and every peer, shared by `compare` and the package-benchmark suites.
        // The root package is named through `.package(name:path:)`: a path dependency's
        // identity would otherwise be its directory's name, which differs between checkouts.
        .target(
            name: "ReceiptBenchmarkCases",
            dependencies: [
                "COpenSSL",
                .product(name: "AppReceipt", package: "swift-receipt"),
                .product(name: "X509Certificates", package: "swift-receipt"),
                .product(name: "AppStoreJWS", package: "swift-receipt"),
                .product(name: "PKCS7", package: "swift-receipt"),
                .product(name: "DER", package: "swift-receipt"),
                .product(name: "CryptoPrimitives", package: "swift-receipt"),
                .product(name: "ReceiptTestSupport", package: "swift-receipt"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),

        // Interleaved, same-process comparison: table + RESULT lines + PASS/FAIL per target.
        .executableTarget(name: "compare", dependencies: ["ReceiptBenchmarkCases"]),

        // Bit-flip differential against OpenSSL's CMS_verify (Benchmarks/README.md, .ci/run).
        .executableTarget(
            name: "differential",
            dependencies: [
                "ReceiptBenchmarkCases", "COpenSSL",
                .product(name: "AppReceipt", package: "swift-receipt"),
                .product(name: "PKCS7", package: "swift-receipt"),
                .product(name: "X509Certificates", package: "swift-receipt"),
            ]),

        // package-benchmark suite (allocation counts, zero-allocation DER walk).
        .executableTarget(
            name: "ReceiptBenchmarks",
            dependencies: [
                "ReceiptBenchmarkCases",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ReceiptBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
