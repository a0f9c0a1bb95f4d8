import AppStoreJWS
import CryptoPrimitives
import Foundation
import ReceiptTestSupport
import X509Certificates

/// `jws`: StoreKit 2 signed data (DESIGN §11) on any input, read three ways.
///
/// 1. As a compact JWS (and, with whitespace around it, trimmed, as the tool reads it):
///    - `CompactJWS` fails only with a malformed-category error, and that error is the right
///      one: `tooLarge` and `notCompactSerialization` exactly when the size or the dot count say
///      so, `invalidBase64URL` for the first part that is not canonical unpadded base64url
///      (decoded independently), certificate errors at an `x5c` index that exists, the parser's
///      own error for that entry, offsets inside the part; every policy's `verify` fails with
///      that same error. A parsed token is the input, its signing input ends at the second dot,
///      its parts are the independent decodings, its payload is JSON to `JSONSerialization` too,
///      and its header agrees with `JSONSerialization`'s (`alg`, `kid`, `typ`, `crit`, other
///      parameters, every `x5c` entry parsed to exactly its DER).
///    - `JWSVerifier` under `.appStoreSignedData`, `.xcodeSignedData`, the G3 rules anchored at
///      the synthetic root, and a custom policy anchored at the synthetic root and the Xcode-shaped
///      synthetic certificate (at a fixed time and at the payload's `signedDate`): rules fail in
///      their documented order (`alg`, `crit`, `x5c`); no error of another category than
///      malformed or not-authentic; an error raised after the signature check (missing
///      `signedDate`, payload, chain) means the signature verified, so the signing input must be
///      genuine; only the certificates' own key and issuer rules, checked first, refuse without
///      it. A verified token's signing input and every certificate of its chain are genuine
///      for that policy's family (`JWSKnownGood`), its chain is its `x5c` ending at an anchor and
///      valid at the validation time, which is the caller's or the payload's `signedDate`
///      (`receiptCreationDate` for an app transaction).
///    - A verified token through the typed calls (`verifyTransaction`, `verifyRenewalInfo`,
///      `verifyAppTransaction`, `verifyNotification`, chosen by `SignedPayloadKind`): the result is
///      the typed decoder's, or its error as `.payload`; matching expectations pass and a
///      mismatched one fails with its own error (the app Apple id only in production); a
///      notification's nested tokens are verified as the harness verifies them, the first failure
///      reported as `.nested` naming its member, and a nested token that verifies is genuine.
/// 2. As a payload: the typed decoders and `SignedPayloadKind` never trap; they either decode or
///    throw `JWSPayloadError`, agree on whether the input is JSON and an object, and a decoded
///    value agrees with `JSONSerialization` (every string member, nested object and array of
///    strings, integers, unknown members kept under exactly their names).
/// 3. Signed here: a JSON input is signed as a payload by the synthetic leaf under the synthetic
///    chain's header (or under the header on its first line, when it has two) and checked as in 1,
///    its signing input genuine. With the synthetic header it must verify at the fixed time, and at
///    its own `signedDate` exactly when that date lies in the chain's validity.
///
/// Errors' `description` and `category` are evaluated for every error seen.
enum JWSHarness {
    static let check = Checker(harness: "jws")

    static func check(_ input: UnsafeRawBufferPointer) throws(InvariantViolation) {
        let bytes = Array(input)
        try checkToken(bytes)
        let trimmed = trimmingWhitespace(bytes)
        if trimmed.count != bytes.count { try checkToken(trimmed) }
        try checkDecoders(bytes)
        try checkSignedHere(bytes)
    }

    /// `bytes` without ASCII whitespace around it.
    static func trimmingWhitespace(_ bytes: [UInt8]) -> [UInt8] {
        let isSpace = { (byte: UInt8) in byte == 0x20 || (0x09 ... 0x0D).contains(byte) }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return [] }
        return Array(bytes[first ... last])
    }

    // MARK: Policies

    /// One verifier the harness runs, the validation time it passes, and whose material may
    /// verify under it.
    struct Policy {
        let name: String
        let verifier: JWSVerifier
        let time: Int64?
        let family: KnownGood.Family
    }

    /// The synthetic anchors: the G3-shaped chain's root and the Xcode-shaped certificate.
    static let testRoot = anchor(JWSSeeds.chain.rootCertificate)
    static let xcodeLike = anchor(JWSSeeds.xcodeLikeDER)

    private static func anchor(_ der: [UInt8]) -> TrustAnchor {
        guard let anchor = try? TrustAnchor(derEncoded: der) else { fatalError("a synthetic JWS anchor does not parse") }
        return anchor
    }

    /// Links are remembered across runs (the cache keys on both certificates' exact bytes, so a
    /// mutated certificate is always checked afresh).
    static let links = VerifiedLinkCache()
    /// Headers of verified tokens, remembered across runs too (keyed on the header's exact text:
    /// a mutated header is always decoded afresh), so the runs also take the remembered path.
    static let headers = JWSHeaderCache()

    static let policies: [Policy] = {
        let custom = JWSVerifier(policy: .custom(anchors: [testRoot, xcodeLike]), linkStore: links, headerCache: headers)
        return [
            Policy(name: "appstore", verifier: JWSVerifier(policy: .appStoreSignedData), time: nil, family: .registered),
            Policy(name: "xcode", verifier: JWSVerifier(policy: .xcodeSignedData), time: nil, family: .registered),
            Policy(
                name: "appstore-test-root",
                verifier: JWSVerifier(policy: .appStoreSignedData(anchors: [testRoot]), linkStore: links, headerCache: headers),
                time: nil, family: .synthetic),
            Policy(name: "custom-test-root-fixed-time", verifier: custom, time: JWSSeeds.fixedTime, family: .synthetic),
            Policy(name: "custom-test-root", verifier: custom, time: nil, family: .synthetic),
        ]
    }()

    static func policy(_ name: String) -> Policy {
        guard let policy = policies.first(where: { $0.name == name }) else { preconditionFailure("no policy \(name)") }
        return policy
    }

    // MARK: 1. Tokens

    /// What became of one token.
    enum Outcome {
        case malformed(JWSError)
        case parsed(CompactJWS, [String: Result<VerifiedJWS, JWSError>])
    }

    /// Parses and verifies `bytes` under every policy, checking everything on the way.
    /// `signedHere`: the signing input the harness itself just signed (genuine, synthetic).
    @discardableResult
    static func checkToken(_ bytes: [UInt8], signedHere: [UInt8]? = nil) throws(InvariantViolation) -> Outcome {
        let jws: CompactJWS
        do {
            jws = try CompactJWS(bytes)
        } catch {
            try checkParseError(error, bytes)
            for policy in policies {
                let again = Result { () throws(JWSError) in try policy.verifier.verify(bytes, at: policy.time) }
                guard case .failure(let same) = again, same == error else {
                    throw check.fail("\(policy.name): verify did not fail with the parser's error \(error): \(again)")
                }
            }
            return .malformed(error)
        }
        try checkParsed(jws, bytes)
        var results: [String: Result<VerifiedJWS, JWSError>] = [:]
        var typedChecked = false
        for policy in policies {
            let result = Result { () throws(JWSError) in try policy.verifier.verify(jws, at: policy.time) }
            results[policy.name] = result
            switch result {
            case .success(let verified):
                try checkVerified(verified, jws, policy, signedHere: signedHere)
                // The typed calls verify again: once per token is enough.
                if !typedChecked { try checkTypedCalls(jws, policy) }
                typedChecked = true
            case .failure(let error):
                try checkRefused(error, jws, policy, signedHere: signedHere)
            }
        }
        return .parsed(jws, results)
    }

    /// The three dot-separated parts, when there are exactly three.
    static func parts(_ bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 3, omittingEmptySubsequences: false)
        return parts.count == 3 ? parts : nil
    }

    static func checkParseError(_ error: JWSError, _ bytes: [UInt8]) throws(InvariantViolation) {
        _ = error.description
        try check.expect(error.category == .malformed, "CompactJWS failed with \(error), category \(error.category)")
        if case .tooLarge(let count) = error {
            try check.expect(count == bytes.count && count > JWSLimits.maxTokenSize, "tooLarge(\(count)) for \(bytes.count) bytes")
            return
        }
        try check.expect(bytes.count <= JWSLimits.maxTokenSize, "\(bytes.count) bytes accepted past the limit: \(error)")
        guard let parts = parts(bytes) else {
            try check.expect(error == .notCompactSerialization, "\(error) for a token that is not three parts")
            return
        }
        let decoded = parts.map { IndependentBase64.decodeURL($0) }
        let firstBad = decoded.firstIndex { $0 == nil }
        let names: [JWSPart] = [.header, .payload, .signature]
        if case .invalidBase64URL(let part) = error {
            try check.expect(
                firstBad.map { names[$0] } == part, "invalidBase64URL(\(part)), but the first undecodable part is \(String(describing: firstBad))")
            return
        }
        try check.expect(firstBad == nil, "\(error) although part \(firstBad ?? 0) is not base64url")
        let header = decoded[0] ?? [], payload = decoded[1] ?? []
        let entries = (FoundationJSON(header).value as? [String: Any])?["x5c"] as? [Any]
        switch error {
        case .invalidJSON(let part, let json):
            _ = json.description
            try check.expect(part != .signature, "the signature is not JSON")
            try check.expect(offset: json.offset, within: 0 ..< (part == .header ? header : payload).count, "\(error)")
        case .headerNotObject:
            try check.expect(!(FoundationJSON(header, fragments: true).value is [String: Any]), "headerNotObject for an object header")
        case .invalidHeaderParameter(let name):
            try check.expect(["alg", "kid", "typ", "x5c"].contains(name), "invalidHeaderParameter(\(name)) for a parameter the header does not type")
        case .tooManyCertificates(let count):
            try check.expect(count > JWSLimits.maxCertificates, "tooManyCertificates(\(count))")
            if let entries { try check.expect(entries.count == count, "tooManyCertificates(\(count)) for \(entries.count) entries") }
        case .invalidCertificateEncoding(let index):
            try check.expect(index < JWSLimits.maxCertificates, "x5c index \(index)")
            if let entries {
                try check.expect(index < entries.count, "x5c index \(index) of \(entries.count)")
                let der = (entries[index] as? String).flatMap { IndependentBase64.decodeStandard(Array($0.utf8)[...]) }
                try check.expect(der == nil, "invalidCertificateEncoding(\(index)) for canonical padded base64")
            }
        case .malformedCertificate(let index, let inner):
            _ = inner.description
            try check.expect(index < JWSLimits.maxCertificates, "x5c index \(index)")
            if let entries {
                try check.expect(index < entries.count, "x5c index \(index) of \(entries.count)")
                guard let der = (entries[index] as? String).flatMap({ IndependentBase64.decodeStandard(Array($0.utf8)[...]) }) else {
                    throw check.fail("malformedCertificate(\(index)) for an entry that is not base64")
                }
                try check.expect(offset: inner.offset, within: 0 ..< der.count, "x5c[\(index)]")
                let direct = Result { () throws(CertificateError) in try Certificate(derEncoded: der) }
                guard case .failure(let same) = direct, same == inner else {
                    throw check.fail("malformedCertificate(\(index), \(inner)), but the entry parses as \(direct)")
                }
            }
        default:
            throw check.fail("CompactJWS failed with \(error), which is a verifier's error")
        }
    }

    /// A parsed token is what the input says, decoded independently.
    static func checkParsed(_ jws: CompactJWS, _ bytes: [UInt8]) throws(InvariantViolation) {
        try check.expect(jws.token == bytes, "token is not the input")
        guard let parts = parts(bytes) else { throw check.fail("parsed a token that is not three parts") }
        try check.expect(jws.signingInputEnd == parts[1].endIndex, "signingInputEnd \(jws.signingInputEnd), second dot at \(parts[1].endIndex)")
        let decoded = parts.map { IndependentBase64.decodeURL($0) }
        guard let header = decoded[0], let payload = decoded[1], let signature = decoded[2] else {
            throw check.fail("parsed a token whose parts are not all base64url")
        }
        try check.expect(jws.payload == payload, "payload is not the decoded second part")
        try check.expect(jws.signature == signature, "signature is not the decoded third part")
        let payloadJSON = FoundationJSON(payload, fragments: true)
        try check.expect(payloadJSON.value != nil || payloadJSON.isOutOfRange, "payload accepted as JSON is not JSON to JSONSerialization")
        let headerJSON = FoundationJSON(header)
        if headerJSON.isOutOfRange { return }
        guard let object = headerJSON.value as? [String: Any] else {
            throw check.fail("header accepted is not a JSON object to JSONSerialization")
        }
        let h = jws.header
        try check.expect(
            h.algorithm == object["alg"] as? String && h.keyID == object["kid"] as? String && h.type == object["typ"] as? String,
            "alg, kid or typ differ from JSONSerialization's")
        try check.expect(h.hasCriticalParameters == (object["crit"] != nil), "crit")
        try check.expect(
            Set(h.otherParameters.keys) == Set(object.keys).subtracting(["alg", "kid", "typ", "x5c", "crit"]),
            "other header parameters \(h.otherParameters.keys.sorted()) of \(object.keys.sorted())")
        let entries = object["x5c"] as? [String]
        try check.expect((entries == nil) == (h.certificateChain == nil) && (object["x5c"] == nil || entries != nil), "x5c presence")
        if let entries, let chain = h.certificateChain {
            try check.expect(entries.count == chain.count, "\(chain.count) certificates for \(entries.count) x5c entries")
            for (entry, certificate) in zip(entries, chain) {
                try check.expect(
                    IndependentBase64.decodeStandard(Array(entry.utf8)[...]).map { $0[...] == certificate.encoded } == true,
                    "a certificate is not its x5c entry")
            }
        }
    }

    /// A refusal names the right rule, in the documented order.
    static func checkRefused(_ error: JWSError, _ jws: CompactJWS, _ policy: Policy, signedHere: [UInt8]?) throws(InvariantViolation) {
        _ = error.description
        let name = policy.name
        let header = jws.header
        switch error.category {
        case .unexpectedValue: throw check.fail("\(name): \(error) with no expectation given")
        case .revocationUnavailable: throw check.fail("\(name): \(error) with no revocation checker given")
        case .notAuthentic: break
        case .malformed:
            switch error {
            case .invalidSignatureLength(let count):
                try check.expect(count == jws.signature.count && count != 64, "\(name): \(error) for \(jws.signature.count) bytes")
            case .payload: break
            default: throw check.fail("\(name): \(error) from a parsed token")
            }
        }
        if header.algorithm != "ES256" {
            try check.expect(
                error == .unsupportedAlgorithm(header.algorithm), "\(name): alg \(String(describing: header.algorithm)) refused as \(error)")
        } else if header.hasCriticalParameters {
            try check.expect(error == .unsupportedCriticalHeader, "\(name): crit refused as \(error)")
        } else if header.certificateChain?.isEmpty ?? true {
            try check.expect(error == .missingCertificateChain, "\(name): no x5c refused as \(error)")
        } else {
            try check.expect(
                ![.unsupportedAlgorithm("ES256"), .unsupportedCriticalHeader, .missingCertificateChain].contains(error),
                "\(name): \(error) for an ES256 header with x5c and no crit")
        }
        switch error {
        case .untrusted(let inner) where refusedBeforeSignature(inner, jws, policy):
            // The certificates' own rules (keys, issuers present) are read before any signature
            // check: nothing verified.
            _ = inner.description
        case .missingSignedDate, .payload, .untrusted:
            // Checked after the signature: it verified.
            try check.expect(policy.time == nil || !(error == .missingSignedDate || error.isPayload), "\(name): \(error) with a time given")
            try expectGenuine(jws, policy, signedHere: signedHere, "\(name): the signature verified (then \(error))")
            if case .untrusted(let inner) = error { _ = inner.description }
        default:
            break
        }
    }

    /// Whether `error` is the one the x5c's certificates earn on their own under the policy's key
    /// and issuer rules, checked here again without the verifier.
    static func refusedBeforeSignature(_ refusal: VerificationError, _ jws: CompactJWS, _ policy: Policy) -> Bool {
        let x5c = jws.header.certificateChain ?? []
        do {
            try MessageCertificates.check(x5c, policy: policy.verifier.policy)
            return false
        } catch {
            return error == refusal
        }
    }

    /// A verified token is genuine, its chain its `x5c`, valid when it says.
    static func checkVerified(
        _ verified: VerifiedJWS, _ jws: CompactJWS, _ policy: Policy,
        signedHere: [UInt8]?
    ) throws(InvariantViolation) {
        let name = policy.name
        try expectGenuine(jws, policy, signedHere: signedHere, "\(name): verified")
        try check.expect(verified.payload == jws.payload, "\(name): verified payload is not the token's")
        try check.expect(verified.header.algorithm == "ES256" && !verified.header.hasCriticalParameters, "\(name): header")
        let x5c = jws.header.certificateChain ?? []
        try check.expect(
            verified.chain.count == x5c.count && zip(verified.chain, x5c).allSatisfy { $0.encoded == $1.encoded },
            "\(name): the chain is not the x5c")
        if let last = verified.chain.last {
            try check.expect(
                policy.verifier.policy.anchors.contains { $0.certificate.encoded == last.encoded }, "\(name): chain does not end at an anchor")
        }
        for certificate in verified.chain {
            try check.expect(
                JWSKnownGood.isKnown(certificate, policy.family),
                "\(name): verified through a certificate nobody signed (\(certificate.subjectDescription))")
            try check.expect(
                certificate.isValid(at: verified.validationTime), "\(name): \(certificate.subjectDescription) not valid at \(verified.validationTime)"
            )
        }
        if let time = policy.time {
            try check.expect(verified.validationTime == time, "\(name): validation time \(verified.validationTime), given \(time)")
        } else if case .success(let signing) = Result(catching: { () throws(JWSPayloadError) in try signingTime(jws.payload) }) {
            try check.expect(
                signing?.seconds == verified.validationTime,
                "\(name): validation time \(verified.validationTime), signedDate says \(String(describing: signing))")
        }
    }

    /// `signedDate`, else `receiptCreationDate`, as an independent reader of the payload finds
    /// them (`AppTransaction` decodes both).
    static func signingTime(_ payload: [UInt8]) throws(JWSPayloadError) -> UnixMilliseconds? {
        let app = try AppTransaction(payload: payload)
        return app.signedDate ?? app.receiptCreationDate
    }

    static func expectGenuine(_ jws: CompactJWS, _ policy: Policy, signedHere: [UInt8]?, _ what: String) throws(InvariantViolation) {
        let input = jws.token[..<jws.signingInputEnd]
        let known =
            (policy.family == .synthetic && signedHere.map { input.elementsEqual($0) } == true)
            || JWSKnownGood.isKnown(signingInput: input, policy.family)
        try check.expect(known, "\(what), but nobody signed this signing input: a forgery")
    }

    // MARK: Typed calls

    /// A verified token through the typed call its payload kind suggests.
    static func checkTypedCalls(_ jws: CompactJWS, _ policy: Policy) throws(InvariantViolation) {
        let token = String(decoding: jws.token, as: UTF8.self)
        let payload = jws.payload, verifier = policy.verifier, time = policy.time
        let kind = SignedPayloadKind(payload: payload)
        let name = "\(policy.name) \(kind)"
        switch kind {
        case .notification:
            try checkNotification(token, payload, policy)
        case .renewalInfo:
            let decoded = Result { () throws(JWSPayloadError) in try JWSRenewalInfoDecodedPayload(payload: payload) }
            let environment = try? decoded.get().environment
            try expectSame(
                Result { () throws(JWSError) in
                    try verifier.verifyRenewalInfo(token, expecting: .init(environment: environment), at: time)
                }, decoded, name)
            guard case .success = decoded else { return }
            let other = mismatch(environment)
            try expectSame(
                Result { () throws(JWSError) in try verifier.verifyRenewalInfo(token, expecting: .init(environment: other), at: time) },
                .failure(.unexpectedEnvironment(expected: other, found: environment)), name)
        case .appTransaction:
            let decoded = Result { () throws(JWSPayloadError) in try AppTransaction(payload: payload) }
            let app = try? decoded.get()
            try expectSame(
                Result { () throws(JWSError) in
                    try verifier.verifyAppTransaction(
                        token,
                        expecting: .init(
                            bundleId: app?.bundleId, appAppleId: app?.appAppleId,
                            environment: app?.receiptType), at: time)
                }, decoded, name)
            guard let app else { return }
            // The app's Apple id is compared only in production (sandbox and Xcode data carry none).
            let otherId = (app.appAppleId ?? 0) &+ 1
            let expected: Result<AppTransaction, JWSError> =
                app.receiptType == "Production"
                ? .failure(.unexpectedAppAppleId(expected: otherId, found: app.appAppleId)) : .success(app)
            try expectSame(
                Result { () throws(JWSError) in
                    try verifier.verifyAppTransaction(token, expecting: .init(appAppleId: otherId), at: time)
                }, expected, name)
        case .realtimeRequest:
            let decoded = Result { () throws(JWSPayloadError) in try DecodedRealtimeRequestBody(payload: payload) }
            let request = try? decoded.get()
            try expectSame(
                Result { () throws(JWSError) in
                    try verifier.verifyRealtimeRequest(
                        token, expecting: .init(appAppleId: request?.appAppleId, environment: request?.environment), at: time)
                }, decoded, name)
            guard let request else { return }
            let other = mismatch(request.environment)
            try expectSame(
                Result { () throws(JWSError) in try verifier.verifyRealtimeRequest(token, expecting: .init(environment: other), at: time) },
                .failure(.unexpectedEnvironment(expected: other, found: request.environment)), name)
        case .transaction, .unknown:
            let decoded = Result { () throws(JWSPayloadError) in try JWSTransactionDecodedPayload(payload: payload) }
            let transaction = try? decoded.get()
            try expectSame(
                Result { () throws(JWSError) in
                    try verifier.verifyTransaction(
                        token, expecting: .init(bundleId: transaction?.bundleId, environment: transaction?.environment), at: time)
                }, decoded, name)
            guard let transaction else { return }
            let other = mismatch(transaction.bundleId)
            try expectSame(
                Result { () throws(JWSError) in try verifier.verifyTransaction(token, expecting: .init(bundleId: other), at: time) },
                .failure(.unexpectedBundleId(expected: other, found: transaction.bundleId)), name)
        }
    }

    /// A value that is not `value`.
    static func mismatch(_ value: String?) -> String { (value ?? "") + "\u{1}" }

    /// A typed call gave the decoder's value, or its error as `.payload`.
    static func expectSame<T: Equatable>(
        _ result: Result<T, JWSError>, _ decoded: Result<T, JWSPayloadError>,
        _ what: String
    ) throws(InvariantViolation) {
        try expectSame(result, decoded.mapError { JWSError.payload($0) }, what)
    }

    static func expectSame<T: Equatable>(
        _ result: Result<T, JWSError>, _ expected: Result<T, JWSError>,
        _ what: String
    ) throws(InvariantViolation) {
        if case .failure(let error) = result { _ = error.description; _ = error.category }
        try check.expect(result == expected, "\(what): typed call gave \(result), expected \(expected)")
    }

    /// `verifyNotification`: the decoded body, the app check, then each nested token as the
    /// harness verifies and decodes it, the first failure reported as `.nested`.
    static func checkNotification(_ token: String, _ payload: [UInt8], _ policy: Policy) throws(InvariantViolation) {
        let verifier = policy.verifier, time = policy.time
        let name = "\(policy.name) notification"
        let result = Result { () throws(JWSError) in try verifier.verifyNotification(token, at: time) }
        let body: ResponseBodyV2DecodedPayload
        switch Result(catching: { () throws(JWSPayloadError) in try ResponseBodyV2DecodedPayload(payload: payload) }) {
        case .failure(let error):
            try check.expect(
                result.map(\.payload) == .failure(.payload(error)), "\(name): \(result.map(\.payload)) for a body that fails with \(error)")
            return
        case .success(let decoded):
            body = decoded
        }
        var expectedError: JWSError?
        let transaction = try nested(
            body.data?.signedTransactionInfo, "data.signedTransactionInfo", policy, &expectedError,
            JWSTransactionDecodedPayload.init)
        let renewal = try nested(
            expectedError == nil ? body.data?.signedRenewalInfo : nil, "data.signedRenewalInfo", policy,
            &expectedError, JWSRenewalInfoDecodedPayload.init)
        switch result {
        case .success(let verified):
            try check.expect(expectedError == nil, "\(name): verified although \(expectedError!)")
            try check.expect(
                verified.payload == body && verified.transaction == transaction && verified.renewalInfo == renewal,
                "\(name): verified notification differs from its decoding")
            try check.expect(verified.verified.payload == payload, "\(name): verified payload")
        case .failure(let error):
            _ = error.description
            try check.expect(
                error == expectedError && error.category == expectedError?.category,
                "\(name): \(error), expected \(String(describing: expectedError))")
        }

        // The notification names its app in the first of data, appData, summary, externalPurchaseToken.
        let owner: String?? =
            body.data.map(\.bundleId) ?? body.appData.map(\.bundleId) ?? body.summary.map(\.bundleId)
            ?? body.externalPurchaseToken.map(\.bundleId)
        let bundleId = owner ?? nil
        let other = mismatch(bundleId)
        let mismatched = Result { () throws(JWSError) in try verifier.verifyNotification(token, expecting: .init(bundleId: other), at: time) }
        try check.expect(
            mismatched.map(\.payload) == .failure(.unexpectedBundleId(expected: other, found: bundleId)),
            "\(name): another bundle id gave \(mismatched.map(\.payload))")
    }

    /// A nested token verified and decoded as `verifyNotification` must: a failure is recorded
    /// as the expected `.nested` error; a token that verifies must be genuine.
    static func nested<T>(
        _ token: String?, _ member: String, _ policy: Policy, _ expectedError: inout JWSError?,
        _ decode: ([UInt8]) throws(JWSPayloadError) -> T
    ) throws(InvariantViolation) -> T? {
        guard let token else { return nil }
        let verified: VerifiedJWS
        do {
            verified = try policy.verifier.verify(token, at: policy.time)
        } catch {
            expectedError = .nested(member: member, error)
            return nil
        }
        guard let jws = try? CompactJWS(token) else { throw check.fail("\(member) verified but does not parse") }
        try checkVerified(verified, jws, policy, signedHere: nil)
        do {
            return try decode(verified.payload)
        } catch {
            expectedError = .nested(member: member, .payload(error))
            return nil
        }
    }

    // MARK: 2. Payloads

    /// The typed decoders on any bytes.
    static func checkDecoders(_ payload: [UInt8]) throws(InvariantViolation) {
        let results: [Result<Any, JWSPayloadError>] = [
            Result { () throws(JWSPayloadError) in try JWSTransactionDecodedPayload(payload: payload) as Any },
            Result { () throws(JWSPayloadError) in try JWSRenewalInfoDecodedPayload(payload: payload) as Any },
            Result { () throws(JWSPayloadError) in try ResponseBodyV2DecodedPayload(payload: payload) as Any },
            Result { () throws(JWSPayloadError) in try AppTransaction(payload: payload) as Any },
            Result { () throws(JWSPayloadError) in try DecodedRealtimeRequestBody(payload: payload) as Any },
        ]
        let kind = SignedPayloadKind(payload: payload)
        var anyDecoded = false, notJSON = false, notObject: Set<JSONValue.Kind> = []
        for result in results {
            switch result {
            case .success: anyDecoded = true
            case .failure(let error):
                _ = error.description
                switch error {
                case .json(let json):
                    notJSON = true
                    try check.expect(offset: json.offset, within: 0 ..< payload.count, "payload \(error)")
                case .notAnObject(let kind):
                    try check.expect(kind != .object, "notAnObject(.object)")
                    notObject.insert(kind)
                case .invalidMember:
                    break
                }
            }
        }
        if !notObject.isEmpty {
            try check.expect(
                notObject.count == 1 && results.allSatisfy { (try? $0.get()) == nil } && !notJSON,
                "the decoders disagree on what kind of JSON the payload is")
            try check.expect(kind == .unknown, "SignedPayloadKind \(kind) for JSON that is not an object")
        }
        if notJSON { try check.expect(kind == .unknown && !anyDecoded, "a payload that is not JSON decoded (kind \(kind))") }
        guard anyDecoded else { return }
        let json = FoundationJSON(payload)
        if json.isOutOfRange { return }
        guard let object = json.value as? [String: Any] else {
            throw check.fail("a decoded payload is not a JSON object to JSONSerialization")
        }
        let expectedKind: SignedPayloadKind =
            object["notificationType"] != nil
            ? .notification
            : object["transactionId"] != nil
                ? .transaction
                : object["autoRenewStatus"] != nil || object["autoRenewProductId"] != nil
                    ? .renewalInfo
                    : object["receiptType"] != nil || object["applicationVersion"] != nil
                        ? .appTransaction : object["userLocale"] != nil ? .realtimeRequest : .unknown
        try check.expect(kind == expectedKind, "SignedPayloadKind \(kind), members say \(expectedKind)")
        for case .success(let value) in results { try compare(value, object, path: "\(type(of: value))") }
    }

    /// A decoded value agrees with `JSONSerialization`'s reading of the same object: each stored
    /// property is a documented member (absent or null when nil), strings, arrays of strings,
    /// Booleans and integers hold the member's value, nested objects agree likewise, and
    /// `additionalFields` holds exactly the members without a property.
    static func compare(_ value: Any, _ object: [String: Any], path: String) throws(InvariantViolation) {
        var documented: Set<String> = []
        var additional: [String: JSONValue]?
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            if label == "additionalFields" {
                additional = child.value as? [String: JSONValue]
                continue
            }
            documented.insert(label)
            let member = object[label]
            let what = "\(path).\(label)"
            guard let field = unwrap(child.value) else {
                try check.expect(member == nil || member is NSNull, "\(what) is nil, the member is \(String(describing: member))")
                continue
            }
            switch field {
            case let string as String:
                try check.expect(
                    member as? String == string, "\(what) \(string.debugDescription), JSONSerialization reads \(String(describing: member))")
            case let strings as [String]:
                try check.expect(member as? [String] == strings, "\(what) \(strings)")
            case let bool as Bool:
                try check.expect(member as? Bool == bool, "\(what) \(bool)")
            case let integer as Int64 where integer.magnitude < 1 << 53:
                try check.expect(
                    (member as? NSNumber)?.int64Value == integer, "\(what) \(integer), JSONSerialization reads \(String(describing: member))")
            case is Int64, is UnixMilliseconds:
                try check.expect(member is NSNumber, "\(what) is a number, the member is not")
            case let elements as [Any]:
                // An array of objects (Advanced Commerce `items`, `refunds`): element by element.
                guard let members = member as? [Any], members.count == elements.count else {
                    throw check.fail("\(what) holds \(elements.count) objects, the member is not an array of as many")
                }
                for (index, (element, member)) in zip(elements, members).enumerated() {
                    guard let nested = member as? [String: Any] else { throw check.fail("\(what)[\(index)] decoded, but is not an object") }
                    try compare(element, nested, path: "\(what)[\(index)]")
                }
            default:
                guard let nested = member as? [String: Any] else { throw check.fail("\(what) decoded, but the member is not an object") }
                try compare(field, nested, path: what)
            }
        }
        guard let additional else { throw check.fail("\(path) keeps no additionalFields") }
        try check.expect(
            Set(additional.keys) == Set(object.keys).subtracting(documented),
            "\(path): additionalFields \(additional.keys.sorted()), members without a field \(Set(object.keys).subtracting(documented).sorted())")
    }

    /// The wrapped value of an optional held as `Any`, or the value itself.
    static func unwrap(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map { unwrap($0.value) } ?? nil
    }

    // MARK: 3. Signed here

    /// A JSON input signed by the synthetic leaf, as a payload under the synthetic header or,
    /// on two lines, as header and payload.
    static func checkSignedHere(_ bytes: [UInt8]) throws(InvariantViolation) {
        let header: [UInt8], payload: [UInt8]
        if let newline = bytes.firstIndex(of: 0x0A) {
            (header, payload) = (Array(bytes[..<newline]), Array(bytes[(newline + 1)...]))
        } else {
            (header, payload) = (JWSSeeds.defaultHeader, bytes)
        }
        // Not JSON (the first thing a decoder finds wrong is the JSON itself): nothing to sign.
        if case .failure(.json) = Result(catching: { () throws(JWSPayloadError) in try signingTime(payload) }) { return }
        let signingInput = JWSSeeds.signingInput(header: header, payload: payload)
        let signature = JWSSeeds.signer.sign(digest: SHA256.hash(signingInput))
        let token = signingInput + [UInt8(ascii: ".")] + Array(TestJWS.base64URL(signature).utf8)
        let outcome = try checkToken(token, signedHere: signingInput)
        guard header == JWSSeeds.defaultHeader else { return }

        // Under the synthetic chain's own header the token is authentic.
        guard case .parsed(let jws, let results) = outcome else {
            guard case .malformed(.invalidJSON(.payload, _)) = outcome else { throw check.fail("signed here: \(outcome)") }
            return
        }
        if case .failure(let error) = results["custom-test-root-fixed-time"] {
            throw check.fail("a token the synthetic leaf signed under its own chain is refused at a fixed time: \(error)")
        }
        let expected: JWSError?
        switch Result(catching: { () throws(JWSPayloadError) in try signingTime(payload) }) {
        case .success(nil), .failure(.notAnObject):
            expected = .missingSignedDate
        case .success(let time?):
            let valid = (jws.header.certificateChain ?? []).allSatisfy { $0.isValid(at: time.seconds) }
            guard !valid else { expected = nil; break }
            for name in ["appstore-test-root", "custom-test-root"] {
                guard case .failure(.untrusted(let error)) = results[name], error.isValidityError else {
                    throw check.fail("\(name): signed at \(time), outside the chain's validity: \(String(describing: results[name]))")
                }
            }
            return
        case .failure:
            return   // Another member is not what the decoder reads; the signing time may still be.
        }
        for name in ["appstore-test-root", "custom-test-root"] {
            let error: JWSError?
            switch results[name] {
            case .success?: error = nil
            case .failure(let e)?: error = e
            case nil: throw check.fail("\(name) did not run")
            }
            try check.expect(error == expected, "\(name): signed here, \(String(describing: error)), expected \(String(describing: expected))")
        }
    }
}

extension JWSError {
    var isPayload: Bool {
        if case .payload = self { return true }
        return false
    }
}

extension VerificationError {
    /// The validation time lies outside a certificate's validity.
    var isValidityError: Bool {
        switch self {
        case .expired, .notYetValid: return true
        default: return false
        }
    }
}
