// swift-tools-version:6.0
//
// The receipt toolkit: a zero-copy ASN.1 DER/BER reader, X.509 chain verification, PKCS#7
// SignedData, SHA and RSA in Swift, and the App Store receipt profile.
// No package dependencies and no unsafe flags: the library embeds anywhere.
import PackageDescription

let package = Package(
    name: "swift-receipt",
    products: [
        .library(name: "DER", targets: ["DER"]),
        .library(name: "CryptoPrimitives", targets: ["CryptoPrimitives"]),
        .library(name: "X509Certificates", targets: ["X509Certificates"]),
        .library(name: "PKCS7", targets: ["PKCS7"]),
        .library(name: "JSONText", targets: ["JSONText"]),
        .library(name: "AppReceipt", targets: ["AppReceipt"]),
        .library(name: "AppStoreJWS", targets: ["AppStoreJWS"]),
        .library(name: "LegacyReceipt", targets: ["LegacyReceipt"]),
        // Synthetic keys, certificates and receipts for tests, benchmarks and fuzz seeds.
        // Throwaway keys: never trust anything this module signs.
        .library(name: "ReceiptTestSupport", targets: ["ReceiptTestSupport"]),
        // The fuzz harnesses' logic, for Fuzz/ (libFuzzer executables) and FuzzRegressionTests.
        .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
        .executable(name: "receipt", targets: ["receipt"]),
    ],
    targets: [
        .target(name: "DER"),
        .target(name: "CryptoPrimitives"),
        .target(name: "X509Certificates", dependencies: ["DER", "CryptoPrimitives"]),
        .target(name: "PKCS7", dependencies: ["X509Certificates", "DER", "CryptoPrimitives"]),
        // Strict RFC 8259 reading and Apple-ordered writing of JSON, standard library only: the one
        // JSON of AppReceipt, AppStoreJWS and LegacyReceipt.
        .target(name: "JSONText"),
        .target(name: "AppReceipt", dependencies: ["JSONText", "PKCS7", "X509Certificates", "DER", "CryptoPrimitives"]),
        // StoreKit 2 signed data: compact JWS, ES256, x5c chains to Apple Root CA - G3, typed payloads.
        .target(name: "AppStoreJWS", dependencies: ["JSONText", "X509Certificates", "CryptoPrimitives"]),
        // iOS 6-style transaction receipts: the old-style dictionary text, the SHA-1 RSA signature
        // blob, chains through embedded intermediates to Apple Root CA, verifyReceipt's JSON
        // (JSONText's writer, AppReceipt's status codes; no PKCS#7).
        .target(name: "LegacyReceipt", dependencies: ["JSONText", "AppReceipt", "X509Certificates", "CryptoPrimitives", "DER"]),
        // `receipt verify` without Foundation: options, texts, JSON and exit statuses for receipts,
        // iOS 6 transaction receipts and StoreKit 2 tokens, shared by the tool and the WebAssembly build.
        .target(name: "VerifyCommandCore", dependencies: ["AppReceipt", "AppStoreJWS", "LegacyReceipt", "PKCS7", "X509Certificates", "DER"]),
        .executableTarget(name: "receipt", dependencies: ["VerifyCommandCore", "AppReceipt", "AppStoreJWS", "LegacyReceipt", "PKCS7", "X509Certificates", "DER", "CryptoPrimitives"]),
        .target(name: "ReceiptTestSupport", dependencies: ["DER", "CryptoPrimitives", "X509Certificates", "PKCS7"]),
        .executableTarget(name: "make-examples", dependencies: ["ReceiptTestSupport"]),
        // Signs one message with a key given in hex, for Scripts/ct-sign's constant-time evidence
        // (valgrind's callgrind and lackey across keys and messages).
        .executableTarget(name: "ct-sign", dependencies: ["CryptoPrimitives"]),
        // Fuzz harness logic: invariants over arbitrary bytes, seeds, the tool driver (Foundation allowed).
        .target(name: "FuzzTargets", dependencies: ["DER", "CryptoPrimitives", "X509Certificates", "PKCS7", "AppReceipt", "AppStoreJWS", "LegacyReceipt", "ReceiptTestSupport"]),

        // Test-only helpers (fixture lookup, hex, processes); Foundation is fine here.
        .target(name: "TestHelpers", path: "Tests/TestHelpers"),
        .testTarget(name: "DERTests", dependencies: ["DER", "ReceiptTestSupport", "TestHelpers"]),
        .testTarget(name: "CryptoPrimitivesTests", dependencies: ["CryptoPrimitives", "ReceiptTestSupport", "TestHelpers"]),
        .testTarget(name: "X509CertificatesTests", dependencies: ["X509Certificates", "DER", "CryptoPrimitives", "ReceiptTestSupport", "TestHelpers"]),
        .testTarget(name: "PKCS7Tests", dependencies: ["PKCS7", "X509Certificates", "DER", "CryptoPrimitives", "ReceiptTestSupport", "TestHelpers"]),
        .testTarget(name: "JSONTextTests", dependencies: ["JSONText"]),
        .testTarget(name: "AppStoreJWSTests", dependencies: ["AppStoreJWS", "X509Certificates", "CryptoPrimitives", "ReceiptTestSupport", "TestHelpers"]),
        .testTarget(name: "AppReceiptTests", dependencies: ["AppReceipt", "PKCS7", "X509Certificates", "ReceiptTestSupport", "TestHelpers"]),
        .testTarget(name: "LegacyReceiptTests", dependencies: ["LegacyReceipt", "AppReceipt", "X509Certificates", "CryptoPrimitives", "ReceiptTestSupport", "TestHelpers"]),
        .testTarget(name: "ReceiptToolTests", dependencies: ["receipt", "AppReceipt", "AppStoreJWS", "LegacyReceipt", "X509Certificates", "CryptoPrimitives", "ReceiptTestSupport", "TestHelpers"]),
        .testTarget(name: "VerifyCommandCoreTests", dependencies: ["VerifyCommandCore", "X509Certificates", "ReceiptTestSupport", "TestHelpers"]),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzTargets", "receipt", "AppReceipt", "AppStoreJWS", "LegacyReceipt", "PKCS7", "X509Certificates", "DER", "ReceiptTestSupport", "TestHelpers"]),
        // The code of the DocC articles (Sources/*/*.docc), verbatim, run against synthetic data;
        // a test checks that every ```swift block of an article is in Tests/DocumentationTests/Articles.
        .testTarget(name: "DocumentationTests", dependencies: ["DER", "CryptoPrimitives", "X509Certificates", "PKCS7", "AppReceipt", "AppStoreJWS", "LegacyReceipt", "ReceiptTestSupport"]),
    ]
)
