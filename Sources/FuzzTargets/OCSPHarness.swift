import CryptoPrimitives
import DER
import X509Certificates

/// `ocsp`: `OCSPResponse(derEncoded:)` and `OCSPResponseVerifier` on any input, and
/// `Certificate.ocspResponderURLs` on any input that parses as a certificate.
///
/// - The responder URLs of a certificate are ASCII (IA5String), or reading them fails with an
///   offset inside the input.
/// - A failure reports an offset inside the input (and describes itself).
/// - A parsed response fills the input: a successful one has a BasicOCSPResponse and an
///   unsuccessful one none; tbsResponseData and the signature lie inside it, the signature after
///   tbsResponseData; there are 1 to `OCSPLimits.maxResponses` SingleResponses and at most
///   `OCSPLimits.maxCertificates` certificates, each keeping the certificate harness's invariants;
///   each CertID's hashes have their algorithm's length; the input is DER throughout and
///   rebuilds byte for byte.
/// - Verified about each of the seeds' three leaves under their CA at the seeds' time, it gives a
///   status only over a tbsResponseData someone signed (a seed's), spending at most two
///   public-key operations; every refusal describes itself. Each seed answer verifies about
///   exactly one of the leaves.
enum OCSPHarness {
    static let check = Checker(harness: "ocsp")

    static func check(_ input: UnsafeRawBufferPointer) throws(InvariantViolation) {
        let bytes = Array(input)
        if let certificate = try? Certificate(derEncoded: bytes) {
            switch Result(catching: { () throws(CertificateError) in try certificate.ocspResponderURLs }) {
            case .success(let urls):
                for url in urls { try check.expect(url.utf8.allSatisfy { $0 < 0x80 }, "URL not IA5: \(url)") }
            case .failure(let error):
                try check.expect(offset: error.offset, within: 0 ..< bytes.count, "ocspResponderURLs")
            }
        }
        let response: OCSPResponse
        do {
            response = try OCSPResponse(derEncoded: bytes)
        } catch {
            _ = error.description
            try check.expect(offset: error.offset, within: 0 ..< bytes.count, "OCSPResponse(derEncoded:)")
            try verify(bytes, parsed: false)
            return
        }
        try check.expect(response.storage == bytes, "response storage is not the input")
        try check.expect((response.status == .successful) == (response.basic != nil), "status \(response.status) and body disagree")
        if let basic = response.basic {
            let whole = 0 ..< bytes.count
            try check.expect(basic.tbsResponseDataRange, within: whole, "tbsResponseData")
            try check.expect(basic.signatureRange, within: basic.tbsResponseDataRange.upperBound ..< bytes.count, "signature")
            try check.expect((1 ... OCSPLimits.maxResponses).contains(basic.responses.count), "\(basic.responses.count) SingleResponses")
            try check.expect(basic.certificates.count <= OCSPLimits.maxCertificates, "\(basic.certificates.count) certificates")
            for single in basic.responses {
                let length = single.certID.hashAlgorithm.digestByteCount
                try check.expect(
                    single.certID.issuerNameHash.count == length && single.certID.issuerKeyHash.count == length,
                    "CertID hash lengths")
                try check.expect(!single.certID.serialNumber.isEmpty, "empty serial number")
            }
            if case .byKey(let hash) = basic.responderID { try check.expect(hash.count == 20, "byKey of \(hash.count) bytes") }
            for certificate in basic.certificates {
                try check.expect(certificate.range, within: basic.signatureRange.upperBound ..< bytes.count, "certificate")
                try CertificateHarness.checkParsed(certificate, storage: bytes, range: certificate.range, check: check)
            }
        }
        if !SkippableCheck.strictDER.isSkipped {
            try DERHarness.checkStrictDER(bytes, 0 ..< bytes.count, "OCSP response", check: check)
        }
        try verify(bytes, parsed: true)
    }

    /// The verifier about each seed leaf: a status only over a signed tbsResponseData.
    static func verify(_ bytes: [UInt8], parsed: Bool) throws(InvariantViolation) {
        let verifier = OCSPResponseVerifier()
        var verified = 0
        for leaf in OCSPSeeds.leaves {
            var budget = VerificationBudget()
            do {
                _ = try verifier.verify(bytes, certificate: leaf, issuer: OCSPSeeds.issuer, at: OCSPSeeds.time, budget: &budget)
            } catch {
                _ = error.description
                if case .malformedResponse = error {
                    try check.expect(!parsed, "a parsed response is malformed to the verifier")
                } else {
                    try check.expect(parsed, "an unparsable response passed parsing in the verifier: \(error)")
                }
                continue
            }
            verified += 1
            try check.expect(parsed, "an unparsable response verified")
            try check.expect(budget.spent <= 2, "\(budget.spent) public-key operations")
            let tbs = (try? OCSPResponse(derEncoded: bytes))?.basic?.tbsResponseDataRange
            try check.expect(
                tbs.map { OCSPSeeds.signedTBS.contains(SHA256.hash(Array(bytes[$0]))) } == true,
                "a response verifies over a tbsResponseData nobody signed")
        }
        // The seeds themselves verify (except the bare tryLater), about exactly one leaf each.
        if parsed, OCSPSeeds.responses.contains(where: { $0.der == bytes }), bytes.count > 5 {
            try check.expect(verified == 1, "a seed response verifies about \(verified) of the seed leaves")
        }
    }
}
