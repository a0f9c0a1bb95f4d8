import X509Certificates

/// What a caller expects of an authentic payload. Each value given is compared after the
/// signature and chain have verified, each mismatch its own error, as Apple's
/// app-store-server-library does.
public struct JWSExpectation: Sendable, Hashable {
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app's Apple id; compared only for `Production` payloads (sandbox and Xcode data carry none).
    public var appAppleId: Int64?
    /// `Production`, `Sandbox` or `Xcode`.
    public var environment: String?

    /// Expects the values given; each `nil` is not compared.
    public init(bundleId: String? = nil, appAppleId: Int64? = nil, environment: String? = nil) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
    }

    /// Compares what a payload says with what is expected.
    func check(
        bundleId found: String?, appAppleId foundAppleId: Int64? = nil, environment foundEnvironment: String?,
        checksAppAppleId: Bool = false
    ) throws(JWSError) {
        if let bundleId, found != bundleId { throw .unexpectedBundleId(expected: bundleId, found: found) }
        if let environment, foundEnvironment != environment {
            throw .unexpectedEnvironment(expected: environment, found: foundEnvironment)
        }
        if checksAppAppleId, let appAppleId, foundEnvironment == "Production", foundAppleId != appAppleId {
            throw .unexpectedAppAppleId(expected: appAppleId, found: foundAppleId)
        }
    }
}

/// A verified server notification with its nested signed data, each verified with the same policy.
public struct VerifiedNotification: Sendable {
    /// The outer notification payload, decoded.
    public let payload: ResponseBodyV2DecodedPayload
    /// `data.signedTransactionInfo`, verified and decoded.
    public let transaction: JWSTransactionDecodedPayload?
    /// `data.signedRenewalInfo`, verified and decoded.
    public let renewalInfo: JWSRenewalInfoDecodedPayload?
    /// `appData.signedAppTransactionInfo` (`RESCIND_CONSENT` and other notifications about the
    /// app), verified and decoded.
    public let appTransaction: AppTransaction?
    /// The outer token's verification (chain, validation time).
    public let verified: VerifiedJWS
}

extension JWSVerifier {
    /// Verifies a signed transaction and decodes it; see `verify(_:at:)`.
    public func verifyTransaction(
        _ token: String, expecting expectation: JWSExpectation = .init(),
        at time: Int64? = nil
    ) throws(JWSError) -> JWSTransactionDecodedPayload {
        let transaction = try decode(verify(token, at: time), JWSTransactionDecodedPayload.init)
        try expectation.check(bundleId: transaction.bundleId, environment: transaction.environment)
        return transaction
    }

    /// Verifies signed renewal info and decodes it (it names no app: only the environment is compared).
    public func verifyRenewalInfo(
        _ token: String, expecting expectation: JWSExpectation = .init(),
        at time: Int64? = nil
    ) throws(JWSError) -> JWSRenewalInfoDecodedPayload {
        let renewalInfo = try decode(verify(token, at: time), JWSRenewalInfoDecodedPayload.init)
        try JWSExpectation(environment: expectation.environment).check(bundleId: nil, environment: renewalInfo.environment)
        return renewalInfo
    }

    /// Verifies a signed app transaction and decodes it (its environment is `receiptType`).
    public func verifyAppTransaction(
        _ token: String, expecting expectation: JWSExpectation = .init(),
        at time: Int64? = nil
    ) throws(JWSError) -> AppTransaction {
        let app = try decode(verify(token, at: time), AppTransaction.init)
        try expectation.check(bundleId: app.bundleId, appAppleId: app.appAppleId, environment: app.receiptType, checksAppAppleId: true)
        return app
    }

    /// Verifies a server notification, then every token nested in it with the same policy (each at
    /// its own signing time unless `time` is given): `data.signedTransactionInfo`,
    /// `data.signedRenewalInfo` and `appData.signedAppTransactionInfo`; and compares the
    /// notification's app and environment with `expectation`. A nested token that fails is
    /// `JWSError.nested` naming its member: a genuine notification carrying a token signed by
    /// anyone else is refused whole.
    public func verifyNotification(
        _ token: String, expecting expectation: JWSExpectation = .init(),
        at time: Int64? = nil
    ) throws(JWSError) -> VerifiedNotification {
        let verified = try verify(token, at: time)
        let payload = try decode(verified, ResponseBodyV2DecodedPayload.init)
        let app =
            payload.data.map { ($0.bundleId, $0.appAppleId, $0.environment) }
            ?? payload.appData.map { ($0.bundleId, $0.appAppleId, $0.environment) }
            ?? payload.summary.map { ($0.bundleId, $0.appAppleId, $0.environment) }
            ?? payload.externalPurchaseToken.map { ($0.bundleId, $0.appAppleId, nil) }
        try expectation.check(bundleId: app?.0, appAppleId: app?.1, environment: app?.2, checksAppAppleId: true)
        let transaction = try payload.data?.signedTransactionInfo.map { token throws(JWSError) in
            try nested("data.signedTransactionInfo") { () throws(JWSError) in
                try decode(verify(token, at: time), JWSTransactionDecodedPayload.init)
            }
        }
        let renewalInfo = try payload.data?.signedRenewalInfo.map { token throws(JWSError) in
            try nested("data.signedRenewalInfo") { () throws(JWSError) in
                try decode(verify(token, at: time), JWSRenewalInfoDecodedPayload.init)
            }
        }
        let appTransaction = try payload.appData?.signedAppTransactionInfo.map { token throws(JWSError) in
            try nested("appData.signedAppTransactionInfo") { () throws(JWSError) in
                try decode(verify(token, at: time), AppTransaction.init)
            }
        }
        return VerifiedNotification(
            payload: payload, transaction: transaction, renewalInfo: renewalInfo, appTransaction: appTransaction, verified: verified)
    }

    private func decode<T>(_ verified: VerifiedJWS, _ make: ([UInt8]) throws(JWSPayloadError) -> T) throws(JWSError) -> T {
        do {
            return try make(verified.payload)
        } catch {
            throw .payload(error)
        }
    }

    private func nested<T>(_ member: String, _ body: () throws(JWSError) -> T) throws(JWSError) -> T {
        do {
            return try body()
        } catch {
            throw .nested(member: member, error)
        }
    }
}
