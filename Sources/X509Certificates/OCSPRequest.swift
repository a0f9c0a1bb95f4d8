import CryptoPrimitives
import DER

/// An OCSP CertID (RFC 6960 §4.1.1): which certificate a request asks about and a response
/// answers for, named by hashes of its issuer's name and key and by its serial number.
///
///     CertID ::= SEQUENCE { hashAlgorithm AlgorithmIdentifier, issuerNameHash OCTET STRING,
///                           issuerKeyHash OCTET STRING, serialNumber CertificateSerialNumber }
public struct OCSPCertID: Sendable, Hashable {
    /// The hash of `issuerNameHash` and `issuerKeyHash`.
    public let hashAlgorithm: HashAlgorithm
    /// The hash of the issuer's subject Name DER (the certificate's issuer field).
    public let issuerNameHash: [UInt8]
    /// The hash of the issuer's subjectPublicKey BIT STRING bits (no tag, length or unused-bits octet).
    public let issuerKeyHash: [UInt8]
    /// The serialNumber INTEGER's content octets (two's complement), as in the certificate.
    public let serialNumber: [UInt8]

    /// A CertID from its parts, as a response carries it.
    public init(hashAlgorithm: HashAlgorithm, issuerNameHash: [UInt8], issuerKeyHash: [UInt8], serialNumber: [UInt8]) {
        self.hashAlgorithm = hashAlgorithm
        self.issuerNameHash = issuerNameHash
        self.issuerKeyHash = issuerKeyHash
        self.serialNumber = serialNumber
    }

    /// The CertID of `certificate` issued by `issuer`, hashed with `hashAlgorithm`: SHA-1 by
    /// default, as OpenSSL's and Apple's clients ask and every responder answers (RFC 6960 §4.3
    /// has clients use SHA-1; RFC 5019 §2.1.1 likewise). Throws `issuerMismatch` unless
    /// `issuer`'s subject is the certificate's issuer name, byte for byte.
    public init(certificate: Certificate, issuer: Certificate, hashAlgorithm: HashAlgorithm = .sha1) throws(OCSPError) {
        guard certificate.issuer == issuer.subject else { throw .issuerMismatch(subject: certificate.subjectName) }
        self.hashAlgorithm = hashAlgorithm
        issuerNameHash = Array(Self.hash(hashAlgorithm, issuer.subject))
        issuerKeyHash = Array(Self.hash(hashAlgorithm, issuer.subjectPublicKeyBits))
        serialNumber = Array(certificate.serialNumber)
    }

    static func hash(_ algorithm: HashAlgorithm, _ bytes: ArraySlice<UInt8>) -> Digest {
        bytes.withUnsafeBytes { algorithm.hash($0) }
    }

    /// The DER of the CertID. The AlgorithmIdentifier carries NULL parameters, as OpenSSL writes them.
    func write(to writer: inout DERWriter) {
        writer.appendSequence { certID in
            certID.appendSequence { algorithm in
                algorithm.appendObjectIdentifier(Self.oid(of: hashAlgorithm))
                algorithm.appendNull()
            }
            certID.appendOctetString(issuerNameHash)
            certID.appendOctetString(issuerKeyHash)
            certID.append(.integer, content: serialNumber)
        }
    }

    static func oid(of hash: HashAlgorithm) -> ASN1ObjectIdentifier {
        AlgorithmIdentifier.digests.first { $0.1 == hash }!.0
    }
}

/// An OCSP request (RFC 6960 §4.1.1), unsigned, for a responder's HTTP POST body
/// (`Content-Type: application/ocsp-request`, RFC 6960 Appendix A.1) or, base64 and URL-encoded,
/// its GET path.
///
///     OCSPRequest ::= SEQUENCE { tbsRequest TBSRequest, optionalSignature [0] EXPLICIT Signature OPTIONAL }
///     TBSRequest ::= SEQUENCE { version [0] EXPLICIT Version DEFAULT v1, requestorName [1] EXPLICIT GeneralName OPTIONAL,
///                               requestList SEQUENCE OF Request, requestExtensions [2] EXPLICIT Extensions OPTIONAL }
///     Request ::= SEQUENCE { reqCert CertID, singleRequestExtensions [0] EXPLICIT Extensions OPTIONAL }
public struct OCSPRequest: Sendable, Hashable {
    /// The certificates asked about, one Request each.
    public let certIDs: [OCSPCertID]
    /// The id-pkix-ocsp-nonce value, if any (RFC 8954: 1 to 32 octets; 32 recommended).
    public let nonce: [UInt8]?

    /// A request about `certIDs` (at least one), with an optional nonce.
    public init(certIDs: [OCSPCertID], nonce: [UInt8]? = nil) {
        precondition(!certIDs.isEmpty, "an OCSP request asks about at least one certificate")
        self.certIDs = certIDs
        self.nonce = nonce
    }

    /// A request about `certificate`, issued by `issuer`, its CertID hashed with `hashAlgorithm`
    /// (SHA-1 by default; see `OCSPCertID`).
    public init(certificate: Certificate, issuer: Certificate, hashAlgorithm: HashAlgorithm = .sha1, nonce: [UInt8]? = nil) throws(OCSPError) {
        self.init(certIDs: [try OCSPCertID(certificate: certificate, issuer: issuer, hashAlgorithm: hashAlgorithm)], nonce: nonce)
    }

    /// The request's DER: version v1 (omitted, DER), no requestorName, no signature; the nonce,
    /// when there is one, as a non-critical requestExtension whose extnValue is the DER of an
    /// OCTET STRING holding it (RFC 8954 §2.1).
    public var derEncoded: [UInt8] {
        var writer = DERWriter()
        writer.appendSequence { request in
            request.appendSequence { tbs in
                tbs.appendSequence { list in
                    for certID in certIDs {
                        list.appendSequence { single in certID.write(to: &single) }
                    }
                }
                if let nonce {
                    tbs.appendConstructed(.contextSpecific(2)) { wrapper in
                        wrapper.appendSequence { extensions in
                            extensions.appendSequence { entry in
                                entry.appendObjectIdentifier(OIDs.ocspNonce)
                                var value = DERWriter()
                                value.appendOctetString(nonce)
                                entry.appendOctetString(value.bytes)
                            }
                        }
                    }
                }
            }
        }
        return writer.bytes
    }
}
