import CryptoPrimitives
import DER

extension ECDSAPublicKey {
    /// Verifies a DER `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` (RFC 5480 §2.2,
    /// RFC 5758 §3.2), the form certificates and CMS carry, over `digest`. Read as strict DER
    /// (X.690 §10: minimal lengths, minimal positive INTEGERs, nothing after the SEQUENCE), so the
    /// signature has exactly one accepted encoding; anything else is simply not valid.
    public func isValidSignature(derEncoded signature: UnsafeRawBufferPointer, digest: Digest) -> Bool {
        guard let (r, s) = Self.readSignatureValue(signature) else { return false }
        return isValidSignature(r: UnsafeRawBufferPointer(rebasing: signature[r]), s: UnsafeRawBufferPointer(rebasing: signature[s]),
                                digest: digest)
    }

    /// Verifies a DER `ECDSA-Sig-Value` held in an array; see the buffer overload.
    public func isValidSignature(derEncoded signature: [UInt8], digest: Digest) -> Bool {
        signature.withUnsafeBytes { isValidSignature(derEncoded: $0, digest: digest) }
    }

    /// The ranges of r's and s's magnitudes (sign octet excluded), or `nil` when the bytes are not
    /// one strict DER SEQUENCE of two non-negative INTEGERs.
    private static func readSignatureValue(_ bytes: UnsafeRawBufferPointer) -> (Range<Int>, Range<Int>)? {
        var reader = ASN1Reader(bytes, rules: .der)
        guard var fields = try? reader.readSequence(), (try? reader.finish()) != nil,
              let r = try? fields.read(.integer), let s = try? fields.read(.integer), (try? fields.finish()) != nil,
              let rMagnitude = magnitude(r), let sMagnitude = magnitude(s)
        else { return nil }
        return (rMagnitude, sMagnitude)
    }

    private static func magnitude(_ element: ASN1Element) -> Range<Int>? {
        guard let magnitude = try? element.unsignedIntegerBytes() else { return nil }   // negative or non-minimal: nil
        let end = element.contentOffset + element.contentLength
        return (end - magnitude.count) ..< end
    }
}
