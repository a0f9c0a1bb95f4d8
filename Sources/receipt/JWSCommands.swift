import AppStoreJWS
import VerifyCommandCore
import X509Certificates

/// `receipt decode` for StoreKit 2 signed data (a compact JWS): exit 0 decoded, 2 malformed
/// (`verify` is VerifyCommandCore's `JWSVerifyCommand`).
enum JWSCommands {
    /// `decode FILE [--json]`: the token taken apart, no trust decision.
    static func decode(_ token: [UInt8], json: Bool) throws {
        let jws: CompactJWS
        do {
            jws = try CompactJWS(token)
        } catch {
            throw JWSVerifyCommand.failure(error)
        }
        if json {
            Output.write(String(decoding: jws.payload, as: UTF8.self) + "\n")
        } else {
            let chain = (jws.header.certificateChain ?? []).map(\.subjectDescription).joined(separator: " <- ")
            Output.write(
                "not verified: alg \(jws.header.algorithm ?? "absent"), x5c \(chain.isEmpty ? "absent" : chain)\n"
                    + SignedDataSummary.text(jws.payload) + "\n")
        }
    }
}
