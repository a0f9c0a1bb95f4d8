import Foundation

/// App Store Server Notifications that Apple signed: the shared fixture's TEST notification, every
/// `*.jws` in the fixtures' `jws/real-notifications/` folder when it exists, and every `*.jws` in
/// the folder `REAL_NOTIFICATIONS` names (a local run over real notifications kept elsewhere).
/// Each file holds one compact JWS, as Apple POSTs it in `signedPayload`.
struct RealNotification: Sendable {
    /// The token, exactly as in its file (surrounding whitespace dropped).
    let token: String
    /// Its payload's members, read without verification: what the test expects the server to
    /// report once it has verified the token itself.
    let notificationType: String
    let subtype: String?
    let notificationUUID: String
    let signedDate: Int
    let environment: String
    let bundleID: String
    let appAppleID: Int?

    /// Every real notification the tests can read; empty without the fixtures.
    static func all() throws -> [RealNotification] {
        guard Fixtures.isPresent else { return [] }
        var files = [Fixtures.directory.appendingPathComponent("jws/apple-real-test-notification.jws")]
        files += tokens(in: Fixtures.directory.appendingPathComponent("jws/real-notifications"))
        if let extra = ProcessInfo.processInfo.environment["REAL_NOTIFICATIONS"], !extra.isEmpty {
            files += tokens(in: URL(fileURLWithPath: extra))
        }
        return try files.map { url in
            guard let data = FileManager.default.contents(atPath: url.path) else { throw FixtureMissing(path: url.path) }
            return try RealNotification(token: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// The `*.jws` files of a folder, by name; none when it does not exist.
    private static func tokens(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".jws") }.sorted().map { folder.appendingPathComponent($0) }
    }

    init(token: String) throws {
        self.token = token
        let json = SignedAPIData.payload(token)
        guard let data = json["data"] as? [String: Any], let type = json["notificationType"] as? String,
            let uuid = json["notificationUUID"] as? String, let signedDate = json["signedDate"] as? Int,
            let environment = data["environment"] as? String, let bundleID = data["bundleId"] as? String
        else { throw UnexpectedAnswer(description: "not a notification token: \(token.prefix(40))…") }
        notificationType = type
        subtype = json["subtype"] as? String
        notificationUUID = uuid
        self.signedDate = signedDate
        self.environment = environment
        self.bundleID = bundleID
        appAppleID = data["appAppleId"] as? Int
    }
}
