// swift-tools-version:6.1
//
// receipt-server: an offline, self-hosted `verifyReceipt` (DESIGN §12). A package of its own so
// that the root package stays dependency-free.
//
//   swift run -c release --package-path Server receipt-server       # 127.0.0.1:8080, SQLite
//   Server/ci                                                       # tests, with a throwaway PostgreSQL
//   Server/bench                                                    # wrk on loopback
//
// Layers, one module each, imports going one way:
//   receipt-server (the executable, the composition root: configuration, commands, wiring)
//     → ReceiptServer (HTTP only: a controller per surface, the answer renderer, limits, /metrics)
//       → ReceiptService (each surface's protocol: verifyReceipt, notifications, hosted API,
//                         inspector, App Store Server API; answers as ServiceAnswer; no HTTP)
//         → ReceiptStore (the storage protocol, one schema, SQLite and PostgreSQL backends)
// ReceiptServer never imports ReceiptStore: the routes see services only. AppStoreServerClient (an
// HTTP client of the App Store Server API) is used by receipt-server's `import` command only, which
// hands it to the import service as an ImportSource.
import PackageDescription

let package = Package(
    name: "receipt-server",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "receipt-server", targets: ["receipt-server"])
    ],
    dependencies: [
        .package(name: "swift-receipt", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        // The OpenAPI document's JSON form (`GET /openapi.json`) is read from its YAML.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // Storage: the schema and its migrations, the storage protocol, SQLite and PostgreSQL.
        .target(
            name: "ReceiptStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // Each surface's protocol over the root library and the store (verifyReceipt,
        // notifications, the hosted API, the inspector, the App Store Server API): every answer a
        // `ServiceAnswer`; knows nothing of HTTP.
        .target(
            name: "ReceiptService",
            dependencies: [
                "ReceiptStore",
                .product(name: "DER", package: "swift-receipt"),
                .product(name: "AppReceipt", package: "swift-receipt"),
                .product(name: "AppStoreJWS", package: "swift-receipt"),
                .product(name: "LegacyReceipt", package: "swift-receipt"),
                .product(name: "X509Certificates", package: "swift-receipt"),
                .product(name: "CryptoPrimitives", package: "swift-receipt"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                // AES-256-CBC for the hosted API's encrypted answers (BoringSSL's, not ours).
                .product(name: "CryptoExtras", package: "swift-crypto"),
                // AES-256-GCM sealing the apps' keys under the operator's secrets key.
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // HTTP only: one RouteCollection per surface over its service, the ServiceAnswer
        // renderer, the body limit, connection bounds, the /metrics listener, JSON logs, the
        // OpenAPI document. Imports ReceiptService, never ReceiptStore.
        .target(
            name: "ReceiptServer",
            dependencies: [
                "ReceiptService",
                .product(name: "Hummingbird", package: "hummingbird"),
                // SHA-256 of the inspector page's script and style (its Content-Security-Policy).
                .product(name: "CryptoPrimitives", package: "swift-receipt"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
            ],
            // Server/openapi.yaml (through a link), compiled in: the executable serves it without a resource bundle.
            resources: [.embedInCode("OpenAPI/openapi.yaml")]),
        // A client of the App Store Server API (Apple's, or another receipt-server's): bearer
        // tokens from AppStoreSigner, bounded answers, retries. Its own module so that the
        // import service (ReceiptService/Import) stays free of HTTP: it reads any ImportSource.
        .target(
            name: "AppStoreServerClient",
            dependencies: [
                .product(name: "AppStoreJWS", package: "swift-receipt"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        // The composition root: configuration (flags, config file, secrets key), the commands
        // (serve, stats, ingest, app, apikey, iapkey, subscriptions, import), and the wiring of store,
        // services and routes (`ServerApplication`).
        .executableTarget(
            name: "receipt-server",
            dependencies: [
                "ReceiptServer", "ReceiptService", "ReceiptStore", "AppStoreServerClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `import`: the In-App Purchase key (CryptoPrimitives' P256SigningKey) and its signer.
                .product(name: "AppStoreJWS", package: "swift-receipt"),
                .product(name: "CryptoPrimitives", package: "swift-receipt"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "AppReceipt", package: "swift-receipt"),
                .product(name: "X509Certificates", package: "swift-receipt"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // `--revocation ocsp`: posting OCSP requests to the responders certificates name.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]),
        // Request bodies for Server/bench: distinct receipts signed by the test chain.
        .executableTarget(
            name: "bench-receipts",
            dependencies: [
                .product(name: "ReceiptTestSupport", package: "swift-receipt")
            ]),
        // Request bodies for Server/bench-hostile: the worst receipts a client without keys can send.
        .executableTarget(
            name: "bench-hostile",
            dependencies: [
                .product(name: "ReceiptTestSupport", package: "swift-receipt")
            ]),
        // Request bodies for Server/bench: distinct notifications signed by a G3-shaped test
        // chain, and the in-process verification rate with and without the link cache.
        .executableTarget(
            name: "bench-notifications",
            dependencies: [
                .product(name: "ReceiptTestSupport", package: "swift-receipt"),
                .product(name: "AppStoreJWS", package: "swift-receipt"),
                .product(name: "X509Certificates", package: "swift-receipt"),
            ]),
        // Inputs for Server/bench's App Store Server API rows: customers' notifications and
        // transactions signed by the G3-shaped test chain, an In-App Purchase key and its JWTs.
        // Server/bench's subscription metrics and entitlements rows: a database filled through
        // ReceiptStore with subscribers over 180 days.
        .executableTarget(
            name: "bench-subscription-metrics",
            dependencies: [
                "ReceiptService", "ReceiptStore",
                .product(name: "ReceiptTestSupport", package: "swift-receipt"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "bench-appstore-api",
            dependencies: [
                .product(name: "ReceiptTestSupport", package: "swift-receipt"),
                .product(name: "AppStoreJWS", package: "swift-receipt"),
                .product(name: "X509Certificates", package: "swift-receipt"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "ReceiptServerTests",
            dependencies: [
                "ReceiptServer", "ReceiptService", "ReceiptStore", "receipt-server", "AppStoreServerClient",
                .product(name: "CryptoPrimitives", package: "swift-receipt"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AppReceipt", package: "swift-receipt"),
                .product(name: "AppStoreJWS", package: "swift-receipt"),
                .product(name: "ReceiptTestSupport", package: "swift-receipt"),
                // The import tests read the In-App Purchase key as the command does.
                .product(name: "X509Certificates", package: "swift-receipt"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                // The browser test drives headless Chromium over the DevTools protocol (a WebSocket).
                .product(name: "WSClient", package: "swift-websocket"),
                // OpenAPIDocumentTests compares the served JSON with the YAML file.
                .product(name: "Yams", package: "Yams"),
            ]),
    ]
)
