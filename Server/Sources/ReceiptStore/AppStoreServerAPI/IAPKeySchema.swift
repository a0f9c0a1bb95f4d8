/// Schema version 7: App Store Connect In-App Purchase keys (`receipt-server iapkey`).
enum IAPKeySchema {
    static let migration = Migration(version: 7, name: "iap_keys") { _ in [] }
}
