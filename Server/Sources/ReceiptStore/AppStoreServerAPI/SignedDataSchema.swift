/// Schema version 6: the signed tokens the App Store Server API passes through (DESIGN §13).
enum SignedDataSchema {
    static let migration = Migration(version: 6, name: "signed transactions and renewal infos") { _ in [] }
}
