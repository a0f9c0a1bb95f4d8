import CryptoPrimitives
import DER
import PKCS7
import X509Certificates

/// Builds PKCS#7 SignedData (RFC 5652) around a content, in the shapes real receipts have:
/// DER like the App Store's, or BER with indefinite lengths and a segmented eContent like
/// Xcode's; with or without signed attributes; `rsaEncryption` or `shaNWithRSAEncryption`.
public struct TestSignedData: Sendable {
    public enum SignatureAlgorithmChoice: Sendable {
        /// `rsaEncryption`, hash from the digest algorithm (App Store receipts).
        case rsaEncryption
        /// `shaNWithRSAEncryption` naming this hash (Xcode receipts name the digest's hash).
        case rsaWithHash(HashAlgorithm)
        /// `ecdsa-with-SHAn` naming this hash (an ECDSA signer).
        case ecdsaWithHash(HashAlgorithm)
    }

    public var content: [UInt8]
    /// Embedded certificates, in the order written.
    public var certificates: [[UInt8]]
    /// The signer: its certificate (for the identifier) and its key.
    public var signer: TestCertificate
    public var signerIssuerName: [UInt8]
    public var digest: HashAlgorithm
    public var signatureAlgorithm: SignatureAlgorithmChoice
    /// Adds content-type and message-digest signed attributes (OpenSSL's default).
    public var signedAttributes: Bool
    /// Replaces the message-digest attribute value (to test a wrong one).
    public var messageDigestOverride: [UInt8]?
    /// BER like Xcode: indefinite lengths and eContent split into segments of this size.
    public var berSegmentSize: Int?

    public init(
        content: [UInt8], signer: TestCertificate, signerIssuerName: [UInt8], certificates: [[UInt8]],
        digest: HashAlgorithm = .sha256, signatureAlgorithm: SignatureAlgorithmChoice = .rsaEncryption,
        signedAttributes: Bool = false, berSegmentSize: Int? = nil
    ) {
        self.content = content
        self.signer = signer
        self.signerIssuerName = signerIssuerName
        self.certificates = certificates
        self.digest = digest
        self.signatureAlgorithm = signatureAlgorithm
        self.signedAttributes = signedAttributes
        self.berSegmentSize = berSegmentSize
    }

    /// The encoded ContentInfo.
    public func encoded() -> [UInt8] {
        let contentDigest = digest.hash(content)
        var signedAttributesDER: [UInt8]? = nil
        var toSign = contentDigest
        if signedAttributes {
            var set = DERWriter()
            set.appendSetOf { attributes in
                attributes.appendSequence { a in
                    a.appendObjectIdentifier(OIDs.contentType)
                    a.appendSetOf { $0.appendObjectIdentifier(OIDs.data) }
                }
                attributes.appendSequence { a in
                    a.appendObjectIdentifier(OIDs.messageDigest)
                    a.appendSetOf { $0.appendOctetString(messageDigestOverride ?? contentDigest.bytes) }
                }
            }
            toSign = digest.hash(set.bytes)   // signed as SET (RFC 5652 §5.4)
            signedAttributesDER = [0xA0] + set.bytes.dropFirst()   // carried as [0] IMPLICIT
        }
        let signature = signer.key.signatureValue(digest: toSign, hash: digest)

        var signerInfo = DERWriter()
        signerInfo.appendSequence { info in
            info.appendInteger(1)
            info.appendSequence { sid in
                sid.appendEncoded(signerIssuerName)
                sid.appendUnsignedInteger(signer.serialNumber)
            }
            info.appendEncoded(Self.digestAlgorithm(digest))
            if let signedAttributesDER { info.appendEncoded(signedAttributesDER) }
            info.appendSequence { algorithm in
                switch signatureAlgorithm {
                case .rsaEncryption:
                    algorithm.appendObjectIdentifier(OIDs.rsaEncryption)
                    algorithm.appendNull()
                case .rsaWithHash(let hash):
                    algorithm.appendObjectIdentifier(TestCertificate.rsaSignatureOID(hash))
                    algorithm.appendNull()
                case .ecdsaWithHash(let hash):
                    algorithm.appendObjectIdentifier(TestCertificate.ecdsaSignatureOID(hash))   // no parameters (RFC 5758 §3.2)
                }
            }
            info.appendOctetString(signature)
        }
        return berSegmentSize == nil ? der(signerInfo: signerInfo.bytes) : ber(signerInfo: signerInfo.bytes)
    }

    static func digestAlgorithm(_ hash: HashAlgorithm) -> [UInt8] {
        var der = DERWriter()
        der.appendSequence { algorithm in
            algorithm.appendObjectIdentifier(TestCertificate.digestOID(hash))
            algorithm.appendNull()
        }
        return der.bytes
    }

    private func der(signerInfo: [UInt8]) -> [UInt8] {
        var der = DERWriter()
        der.appendSequence { contentInfo in
            contentInfo.appendObjectIdentifier(OIDs.signedData)
            contentInfo.appendConstructed(.contextSpecific(0)) { explicit in
                explicit.appendSequence { signedData in
                    signedData.appendInteger(1)
                    signedData.appendSetOf { $0.appendEncoded(Self.digestAlgorithm(digest)) }
                    signedData.appendSequence { encapsulated in
                        encapsulated.appendObjectIdentifier(OIDs.data)
                        encapsulated.appendConstructed(.contextSpecific(0)) { $0.appendOctetString(content) }
                    }
                    signedData.appendConstructed(.contextSpecific(0)) { set in
                        for certificate in certificates { set.appendEncoded(certificate) }
                    }
                    signedData.appendSetOf { $0.appendEncoded(signerInfo) }
                }
            }
        }
        return der.bytes
    }

    /// BER as Xcode writes it: indefinite lengths down to a constructed eContent.
    private func ber(signerInfo: [UInt8]) -> [UInt8] {
        func indefinite(_ identifier: UInt8, _ body: [UInt8]) -> [UInt8] { [identifier, 0x80] + body + [0, 0] }
        func definite(_ tag: ASN1Tag, _ body: [UInt8]) -> [UInt8] {
            var der = DERWriter()
            der.append(tag, content: body)
            return der.bytes
        }
        var segments: [UInt8] = []
        var start = 0
        repeat {
            let end = min(content.count, start + max(1, berSegmentSize!))
            segments += definite(.octetString, Array(content[start ..< end]))
            start = end
        } while start < content.count
        var oid = DERWriter()
        oid.appendObjectIdentifier(OIDs.data)
        let encapsulated = indefinite(0x30, oid.bytes + indefinite(0xA0, indefinite(0x24, segments)))
        var version = DERWriter()
        version.appendInteger(1)
        let digests = definite(.set, Self.digestAlgorithm(digest))
        let certificateSet = definite(.contextSpecific(0), certificates.flatMap { $0 })
        let signedData = indefinite(0x30, version.bytes + digests + encapsulated + certificateSet + definite(.set, signerInfo))
        var typeOID = DERWriter()
        typeOID.appendObjectIdentifier(OIDs.signedData)
        return indefinite(0x30, typeOID.bytes + indefinite(0xA0, signedData))
    }
}
