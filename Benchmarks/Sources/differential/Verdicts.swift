import AppReceipt
import COpenSSL
import PKCS7
import ReceiptBenchmarkCases
import X509Certificates

/// What one verifier says about one input.
enum Verdict: Equatable {
    /// Verified; the signed content.
    case accept(payload: [UInt8])
    /// Refused, and why.
    case refuse(reason: String)
}

/// Ours: `AppReceipt` decoding and `validate` under the App Store policy at the receipt's own
/// creation date (the library's and the `receipt` tool's default).
enum Ours {
    static func verdict(_ bytes: [UInt8]) -> Verdict {
        let receipt: AppReceipt
        do {
            receipt = try AppReceipt(bytes)
        } catch {
            return .refuse(reason: reason(error))
        }
        do {
            try receipt.validate(policy: .appStore, at: .receiptCreation)
        } catch {
            return .refuse(reason: reason(error))
        }
        return .accept(payload: receipt.signedData.contentBytes())
    }

    /// A refusal's reason without offsets (and without the identifiers and numbers a flip made
    /// up), so that refusals for the same rule count together.
    static func reason(_ error: ReceiptError) -> String {
        switch error {
        case .inputTooLarge: return "malformed: input too large"
        case .envelope(let envelope): return "malformed: \(reason(envelope.kind))"
        case .payload(let payload): return "malformed payload: \(payload.kind.reason)"
        case .invalidAttribute(let type, _): return "malformed payload: attribute \(type) has an invalid value"
        case .duplicateAttribute(let type, _): return "malformed payload: attribute \(type) appears twice"
        case .missingAttribute(let type, _): return "malformed payload: required attribute \(type) is missing"
        case .tooManyElements: return "malformed payload: too many attributes"
        }
    }

    static func reason(_ error: ReceiptValidationError) -> String { "not valid: \(error)" }

    static func reason(_ kind: PKCS7Error.Kind) -> String {
        switch kind {
        case .unsupportedAlgorithm: return "unsupported algorithm"
        case .unsupportedContentType: return "unsupported content type"
        case .unsupportedVersion: return "unsupported version"
        case .embeddedCertificate(let index, let certificate):
            switch certificate {
            case .unsupportedAlgorithm: return "certificate \(index): unsupported algorithm"
            case .unsupportedVersion: return "certificate \(index): unsupported version"
            default: return kind.reason
            }
        default: return kind.reason
        }
    }
}

/// OpenSSL: `d2i_CMS_ContentInfo` and `CMS_verify` against an `X509_STORE` holding only the
/// anchor, with no time check and purpose "any" (`openssl cms -verify -no_check_time -purpose
/// any`), the content written to a memory BIO.
enum OpenSSLCMS {
    static func verdict(_ bytes: [UInt8], store: OpenSSL.TrustStore) -> Verdict {
        defer { ERR_clear_error() }
        let cms = bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_CMS_ContentInfo(nil, &cursor, buffer.count)
        }
        guard let cms else { return .refuse(reason: "d2i_CMS_ContentInfo") }
        defer { CMS_ContentInfo_free(cms) }
        guard let out = BIO_new(BIO_s_mem()) else { return .refuse(reason: "BIO_new") }
        defer { BIO_free(out) }
        guard CMS_verify(cms, nil, store.store, nil, out, 0) == 1 else { return .refuse(reason: "CMS_verify") }
        var data: UnsafeMutablePointer<CChar>? = nil
        let count = BIO_ctrl(out, BIO_CTRL_INFO, 0, &data)   // BIO_get_mem_data
        guard count >= 0, let data else { return .accept(payload: []) }
        return .accept(payload: Array(UnsafeRawBufferPointer(start: data, count: count)))
    }
}

/// How the two verdicts on one mutant compare.
enum Outcome: String, CaseIterable {
    /// Both accept, with the same content, which is the original's.
    case bothAccept = "A"
    case bothRefuse = "R"
    /// We refuse and OpenSSL accepts: one of our extra rules (counted by our reason).
    case onlyOpenSSLAccepts = "O"
    /// We accept and OpenSSL refuses: must never happen.
    case onlyWeAccept = "X"
    /// We accept a content other than OpenSSL's or the original's: must never happen.
    case differentPayload = "P"

    static func of(ours: Verdict, openssl: Verdict, original: [UInt8]) -> Outcome {
        switch (ours, openssl) {
        case (.accept(let mine), .accept(let theirs)): return mine == theirs && mine == original ? .bothAccept : .differentPayload
        case (.accept(let mine), .refuse): return mine == original ? .onlyWeAccept : .differentPayload
        case (.refuse, .accept): return .onlyOpenSSLAccepts
        case (.refuse, .refuse): return .bothRefuse
        }
    }
}
