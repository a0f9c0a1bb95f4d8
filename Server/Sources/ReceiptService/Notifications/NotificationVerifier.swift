import AppStoreJWS
import X509Certificates
import ReceiptStore

/// Why a notification is not stored, in the three answers Apple's sender tells apart: 400 (the
/// body or token is not one), 401 (not authentic), 403 (authentic, but not for this server or
/// this endpoint). `reason` is one line for the answer and the log: it never holds the token.
public struct NotificationRefusal: Error, Sendable, Equatable {
    /// 400, 401, 403, or 503 when no revocation status could be had (`--revocation ocsp`).
    public enum Kind: String, Sendable {
        case malformed, notAuthentic = "not_authentic", refused, unavailable
    }

    /// Which answer.
    public let kind: Kind
    /// One line, without the token.
    public let reason: String
    /// The `notificationType` of an authentic notification refused after its signature was
    /// verified (nil when verification did not get that far): `/metrics` counts it by type.
    public let notificationType: String?

    init(_ kind: Kind, _ reason: String, notificationType: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.notificationType = notificationType
    }

    /// The same refusal, of a notification whose verified type is `type`.
    func of(type: String?) -> NotificationRefusal {
        NotificationRefusal(kind, reason, notificationType: type)
    }

    /// A verification failure, by the `JWSError` category: malformed → 400, not authentic → 401,
    /// another app or environment (`unexpectedBundleId`, `unexpectedEnvironment`,
    /// `unexpectedAppAppleId`) → 403, revocation status unavailable → 503. Nested tokens carry
    /// their own failure's category.
    init(_ error: JWSError) {
        switch error.category {
        case .malformed: self.init(.malformed, error.description)
        case .notAuthentic: self.init(.notAuthentic, error.description)
        case .unexpectedValue: self.init(.refused, error.description)
        case .revocationUnavailable: self.init(.unavailable, error.description)
        }
    }
}

/// Turns a `signedPayload` into a `NotificationRecord`, or refuses it. The rules, in order:
/// 1. the token and its nested `signedTransactionInfo`/`signedRenewalInfo` verify under the App
///    Store signed-data policy (Apple Root CA - G3 pinned, or `--root-g3` anchors with the same
///    rules), each at its own `signedDate` (`JWSVerifier.verifyNotification`); at an endpoint,
///    `data.environment` must be the endpoint's;
/// 2. the payload names its `notificationUUID`, `notificationType` and `signedDate`;
/// 3. its app is served (`AppRegistry`), its environment is `Production` or `Sandbox`, and in
///    production the app's configured Apple id, when there is one, is `appAppleId`;
/// 4. the nested transaction names the same app and environment, the renewal info the same
///    environment, and each has the members its key needs and dates `AppleDateFormat` can print;
///    the app transaction (`appData.signedAppTransactionInfo`) names the same app and environment.
struct NotificationVerifier: Sendable {
    let verifier: JWSVerifier

    /// `anchors` replace Apple Root CA - G3 under the same rules (`--root-g3`); one link cache
    /// serves every token, so Apple's intermediate and leaf links are verified once per process
    /// (and the leaf's key keeps its verification table), and one header cache, so Apple's `x5c`
    /// header is decoded once.
    /// `revocation`: every verified path is asked about (`--revocation ocsp`).
    init(anchors: [TrustAnchor]?, revocation: RevocationGate? = nil, linkCache: VerifiedLinkCache = VerifiedLinkCache()) {
        verifier = .appStore(anchors: anchors, revocation: revocation, linkCache: linkCache)
    }

    /// The record to store. `environment`: the endpoint's (`Production`/`Sandbox`), or nil to take
    /// the notification's own (`receipt-server ingest`). A refusal of a token whose signature
    /// verified carries the payload's `notificationType`.
    func record(_ token: String, environment: String?, registry: AppRegistry) throws(NotificationRefusal) -> NotificationRecord {
        let verified: VerifiedNotification
        do {
            verified = try verifier.verifyNotification(token, expecting: JWSExpectation(environment: environment))
        } catch {
            throw NotificationRefusal(error).of(type: verifiedType(token, after: error))
        }
        do {
            return try Self.record(verified, token: token, registry: registry)
        } catch {
            throw error.of(type: verified.payload.notificationType)
        }
    }

    /// The `notificationType` of a token refused after its own signature verified: another
    /// endpoint's environment (checked once the signature is), or a nested token that fails. The
    /// outer token alone is verified again to read it: only authentic tokens pay for that, with
    /// their chain's links already cached. Nil for any other failure.
    func verifiedType(_ token: String, after error: JWSError) -> String? {
        switch error {
        case .nested: break
        default: guard error.category == .unexpectedValue else { return nil }
        }
        guard let verified = try? verifier.verify(token) else { return nil }
        return (try? ResponseBodyV2DecodedPayload(payload: verified.payload))?.notificationType
    }

    /// Rules 2 to 4 over a verified notification.
    static func record(_ verified: VerifiedNotification, token: String, registry: AppRegistry) throws(NotificationRefusal) -> NotificationRecord {
        let payload = verified.payload
        guard let uuid = payload.notificationUUID, (1 ... 128).contains(uuid.utf8.count) else {
            throw NotificationRefusal(.malformed, "payload has no notificationUUID (or one longer than 128 bytes)")
        }
        guard let type = payload.notificationType, (1 ... 128).contains(type.utf8.count) else {
            throw NotificationRefusal(.malformed, "payload has no notificationType")
        }
        guard let signed = payload.signedDate else { throw NotificationRefusal(.malformed, "payload has no signedDate") }
        let app = try NotificationApp(payload, registry: registry)
        let appTransaction = try verified.appTransaction.map { a throws(NotificationRefusal) in
            try Self.appTransaction(a, jws: payload.appData?.signedAppTransactionInfo ?? "", of: app)
        }
        return NotificationRecord(
            uuid: uuid, type: type, subtype: payload.subtype, signedMilliseconds: signed.value, signedPayload: token,
            bundleID: app.bundleID, environment: app.environment,
            transaction: try verified.transaction.map { t throws(NotificationRefusal) in
                try Self.transaction(t, jws: payload.data?.signedTransactionInfo ?? "", of: app)
            },
            renewalInfo: try verified.renewalInfo.map { r throws(NotificationRefusal) in
                try Self.renewalInfo(r, jws: payload.data?.signedRenewalInfo ?? "", of: app)
            },
            appTransaction: appTransaction ?? nil)
    }

    /// `appData.signedAppTransactionInfo` as stored: same app and environment (`receiptType`) as
    /// the notification; nil when it names no `appTransactionId` (`SignedAppTransaction.record`).
    static func appTransaction(_ a: AppTransaction, jws: String, of app: NotificationApp) throws(NotificationRefusal) -> AppTransactionRecord? {
        guard a.bundleId == app.bundleID, a.receiptType == app.environment else {
            throw NotificationRefusal(
                .refused,
                "appData.signedAppTransactionInfo: bundle id \(a.bundleId ?? "absent") in \(a.receiptType ?? "no environment"), "
                    + "the notification's is \(app.bundleID) in \(app.environment)")
        }
        return SignedAppTransaction.record(a, jws: jws, bundleID: app.bundleID, environment: app.environment)
    }

    /// `data.signedTransactionInfo` as stored: same app and environment as the notification, the
    /// key's members present.
    /// `jws` is the token `t` was decoded from, kept for the App Store Server API.
    static func transaction(_ t: JWSTransactionDecodedPayload, jws: String, of app: NotificationApp) throws(NotificationRefusal)
        -> NotificationTransaction
    {
        guard t.bundleId == app.bundleID, t.environment == app.environment else {
            throw NotificationRefusal(
                .refused,
                "data.signedTransactionInfo: bundle id \(t.bundleId ?? "absent") in \(t.environment ?? "no environment"), "
                    + "the notification's is \(app.bundleID) in \(app.environment)")
        }
        guard let id = t.transactionId, !id.isEmpty, let product = t.productId, let purchase = t.purchaseDate, let signed = t.signedDate else {
            throw NotificationRefusal(.malformed, "data.signedTransactionInfo lacks transactionId, productId, purchaseDate or signedDate")
        }
        try checkDates(NotificationJSON.transactionDates(t), "data.signedTransactionInfo")
        let (json, serverMembers) = NotificationJSON.transaction(t)
        return NotificationTransaction(
            transactionID: id, originalTransactionID: t.originalTransactionId ?? id, productID: product,
            purchaseMilliseconds: purchase.value, signedMilliseconds: signed.value,
            json: json, serverMembers: serverMembers, signed: SignedFacts.transaction(t, jws: jws))
    }

    /// `data.signedRenewalInfo` as stored: the notification's environment, an original
    /// transaction id (its key).
    static func renewalInfo(_ r: JWSRenewalInfoDecodedPayload, jws: String, of app: NotificationApp) throws(NotificationRefusal) -> RenewalInfoRecord
    {
        guard r.environment == app.environment else {
            throw NotificationRefusal(
                .refused, "data.signedRenewalInfo: environment \(r.environment ?? "absent"), the notification's is \(app.environment)")
        }
        guard let original = r.originalTransactionId, !original.isEmpty, let signed = r.signedDate else {
            throw NotificationRefusal(.malformed, "data.signedRenewalInfo lacks originalTransactionId or signedDate")
        }
        try checkDates(NotificationJSON.renewalDates(r), "data.signedRenewalInfo")
        return RenewalInfoRecord(
            originalTransactionID: original, signedMilliseconds: signed.value, json: NotificationJSON.renewalInfo(r),
            signed: SignedFacts.renewal(r, jws: jws))
    }

    static func checkDates(_ dates: [UnixMilliseconds?], _ member: String) throws(NotificationRefusal) {
        for date in dates.compactMap({ $0 }) where !NotificationJSON.dateRange.contains(date.value) {
            throw NotificationRefusal(.malformed, "\(member): date \(date.value) outside years 1970 to 9999")
        }
    }
}

/// The app and environment a verified notification is about, checked against the registry.
struct NotificationApp: Sendable {
    let bundleID: String
    /// `Production` or `Sandbox` (or `Xcode`, for a transaction an app's backend posted).
    let environment: String

    /// An app already checked (the App Store Server API's caller and path).
    init(bundleID: String, environment: String) {
        self.bundleID = bundleID
        self.environment = environment
    }

    /// Reads them where the notification keeps them (`data`, or `summary`, `appData`,
    /// `externalPurchaseToken` for notifications without `data`) and checks rule 3 of
    /// `NotificationVerifier`.
    init(_ payload: ResponseBodyV2DecodedPayload, registry: AppRegistry) throws(NotificationRefusal) {
        let named =
            payload.data.map { ($0.bundleId, $0.appAppleId, $0.environment) }
            ?? payload.summary.map { ($0.bundleId, $0.appAppleId, $0.environment) }
            ?? payload.appData.map { ($0.bundleId, $0.appAppleId, $0.environment) }
            ?? payload.externalPurchaseToken.map { ($0.bundleId, $0.appAppleId, nil) }
        guard let bundleID = named?.0 else { throw NotificationRefusal(.malformed, "payload names no bundleId") }
        guard registry.decision(for: bundleID) != .notServed else {
            throw NotificationRefusal(.refused, "app \(bundleID) is not served here")
        }
        guard let environment = named?.2, environment == "Production" || environment == "Sandbox" else {
            throw NotificationRefusal(.refused, "environment \(named?.2 ?? "absent"): only Production and Sandbox notifications are stored")
        }
        // As Apple's library: the Apple id is compared for production data (sandbox carries none).
        if environment == "Production", let expected = registry.appleID(for: bundleID), named?.1 != expected {
            throw NotificationRefusal(.refused, "appAppleId \(named?.1.map(String.init) ?? "absent"), app \(bundleID) is configured with \(expected)")
        }
        self.bundleID = bundleID
        self.environment = environment
    }
}
