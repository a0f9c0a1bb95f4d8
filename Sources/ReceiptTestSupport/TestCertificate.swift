import CryptoPrimitives
import DER
import PKCS7
import X509Certificates

/// Builds X.509 v3 (or v1) certificates signed with throwaway keys, for synthetic chains.
/// Every field has a sensible default; tests change the one they are about.
public struct TestCertificate: Sendable {
    /// One extension: identifier, criticality and the DER inside extnValue.
    public struct Extension: Sendable {
        public var oid: ASN1ObjectIdentifier
        public var critical: Bool
        public var value: [UInt8]

        public init(oid: ASN1ObjectIdentifier, critical: Bool = false, value: [UInt8]) {
            self.oid = oid
            self.critical = critical
            self.value = value
        }

        /// basicConstraints (critical): cA and an optional pathLenConstraint.
        public static func basicConstraints(ca: Bool, pathLength: Int? = nil, critical: Bool = true) -> Extension {
            var der = DERWriter()
            der.appendSequence { seq in
                if ca { seq.appendBool(true) }
                if let pathLength { seq.appendInteger(Int64(pathLength)) }
            }
            return Extension(oid: OIDs.basicConstraints, critical: critical, value: der.bytes)
        }

        /// keyUsage (critical) with the given bits set (bit 0 = digitalSignature).
        public static func keyUsage(_ usage: KeyUsage, critical: Bool = true) -> Extension {
            var bits: [UInt8] = [UInt8(truncatingIfNeeded: usage.rawValue).bitReversed, UInt8(usage.rawValue >> 8).bitReversed]
            while bits.count > 1 && bits.last == 0 { bits.removeLast() }
            // DER named bit list: trailing zero bits trimmed (X.690 §11.2.2).
            let unused = bits.last == 0 ? 0 : UInt8(bits.last!.trailingZeroBitCount)
            var der = DERWriter()
            der.appendBitString(bits, unusedBits: unused)
            return Extension(oid: OIDs.keyUsage, critical: critical, value: der.bytes)
        }

        /// certificatePolicies listing `policies` without qualifiers.
        public static func policies(_ policies: [ASN1ObjectIdentifier], critical: Bool = false) -> Extension {
            var der = DERWriter()
            der.appendSequence { list in
                for policy in policies { list.appendSequence { $0.appendObjectIdentifier(policy) } }
            }
            return Extension(oid: OIDs.certificatePolicies, critical: critical, value: der.bytes)
        }

        /// extendedKeyUsage with the given purposes.
        public static func extendedKeyUsage(_ purposes: [ASN1ObjectIdentifier], critical: Bool = false) -> Extension {
            var der = DERWriter()
            der.appendSequence { list in for purpose in purposes { list.appendObjectIdentifier(purpose) } }
            return Extension(oid: OIDs.extendedKeyUsage, critical: critical, value: der.bytes)
        }

        /// A marker extension whose value is NULL, as Apple's are.
        public static func marker(_ oid: ASN1ObjectIdentifier, critical: Bool = false) -> Extension {
            Extension(oid: oid, critical: critical, value: [0x05, 0x00])
        }

        /// subjectKeyIdentifier.
        public static func subjectKeyIdentifier(_ identifier: [UInt8]) -> Extension {
            var der = DERWriter()
            der.appendOctetString(identifier)
            return Extension(oid: OIDs.subjectKeyIdentifier, value: der.bytes)
        }

        /// authorityKeyIdentifier with a keyIdentifier.
        public static func authorityKeyIdentifier(_ identifier: [UInt8]) -> Extension {
            var der = DERWriter()
            der.appendSequence { $0.append(.contextSpecific(0, constructed: false), content: identifier) }
            return Extension(oid: OIDs.authorityKeyIdentifier, value: der.bytes)
        }
    }

    /// The subject as (attribute OID, UTF8String value) pairs, one per RDN.
    public var subject: [(ASN1ObjectIdentifier, String)]
    public var serialNumber: [UInt8]
    /// The certificate's own key: in its SubjectPublicKeyInfo, and what it signs others with.
    public var key: any TestCertificateKey
    /// Validity, seconds since 1970.
    public var notBefore: Int64
    public var notAfter: Int64
    /// Hash of the issuer's signature (sha256WithRSAEncryption by default).
    public var signatureHash: HashAlgorithm
    public var extensions: [Extension]
    /// 3, or 1 for a certificate without extensions.
    public var version: Int

    public init(
        commonName: String, organization: String = "Receipt Toolkit Tests", key: any TestCertificateKey,
        serialNumber: [UInt8] = [0x01], notBefore: Int64 = TestCertificate.defaultNotBefore,
        notAfter: Int64 = TestCertificate.defaultNotAfter, signatureHash: HashAlgorithm = .sha256,
        extensions: [Extension] = [], version: Int = 3
    ) {
        subject = [(Names.country, "US"), (Names.organization, organization), (Names.commonName, commonName)]
        self.key = key
        self.serialNumber = serialNumber
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.signatureHash = signatureHash
        self.extensions = extensions
        self.version = version
    }

    /// 2015-01-01T00:00:00Z.
    public static let defaultNotBefore: Int64 = 1_420_070_400
    /// 2045-01-01T00:00:00Z.
    public static let defaultNotAfter: Int64 = 2_366_841_600

    /// Attribute types for names.
    public enum Names: Sendable {
        public static let commonName = ASN1ObjectIdentifier("2.5.4.3")
        public static let country = ASN1ObjectIdentifier("2.5.4.6")
        public static let organization = ASN1ObjectIdentifier("2.5.4.10")
        public static let organizationalUnit = ASN1ObjectIdentifier("2.5.4.11")
    }

    /// The subject Name's DER (countryName as PrintableString, the rest UTF8String).
    public var subjectName: [UInt8] {
        var der = DERWriter()
        der.appendSequence { rdns in
            for (type, value) in subject {
                rdns.appendSetOf { set in
                    set.appendSequence { pair in
                        pair.appendObjectIdentifier(type)
                        pair.appendString(value, as: type == Names.country ? .printable : .utf8)
                    }
                }
            }
        }
        return der.bytes
    }

    /// The DER SubjectPublicKeyInfo of `key`.
    public var subjectPublicKeyInfo: [UInt8] { key.subjectPublicKeyInfo }

    /// The DER tbsCertificate naming `issuerName` as issuer, whose key (RSA by default) signs it.
    public func tbsCertificate(issuerName: [UInt8], issuerKey: any TestCertificateKey = TestKeys.rsa2048[0]) -> [UInt8] {
        var der = DERWriter()
        der.appendSequence { tbs in
            if version == 3 { tbs.appendConstructed(.contextSpecific(0)) { $0.appendInteger(2) } }
            tbs.appendUnsignedInteger(serialNumber)
            tbs.appendEncoded(issuerKey.signatureAlgorithm(signatureHash))
            tbs.appendEncoded(issuerName)
            tbs.appendSequence { validity in
                validity.appendTime(notBefore)
                validity.appendTime(notAfter)
            }
            tbs.appendEncoded(subjectName)
            tbs.appendEncoded(subjectPublicKeyInfo)
            if version == 3 && !extensions.isEmpty {
                tbs.appendConstructed(.contextSpecific(3)) { wrapper in
                    wrapper.appendSequence { list in
                        for ext in extensions {
                            list.appendSequence { entry in
                                entry.appendObjectIdentifier(ext.oid)
                                if ext.critical { entry.appendBool(true) }
                                entry.appendOctetString(ext.value)
                            }
                        }
                    }
                }
            }
        }
        return der.bytes
    }

    /// The certificate DER, signed by `issuer`'s key under `issuer`'s name.
    public func signed(by issuer: TestCertificate) -> [UInt8] {
        signed(issuerName: issuer.subjectName, issuerKey: issuer.key)
    }

    /// The certificate DER, self-signed.
    public func selfSigned() -> [UInt8] { signed(by: self) }

    /// The certificate DER with an explicit issuer name and signing key.
    public func signed(issuerName: [UInt8], issuerKey: any TestCertificateKey) -> [UInt8] {
        let tbs = tbsCertificate(issuerName: issuerName, issuerKey: issuerKey)
        let signature = issuerKey.signatureValue(digest: signatureHash.hash(tbs), hash: signatureHash)
        return TestCertificate.assemble(tbs: tbs, algorithm: issuerKey.signatureAlgorithm(signatureHash), signature: signature)
    }

    /// Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }.
    public static func assemble(tbs: [UInt8], algorithm: [UInt8], signature: [UInt8]) -> [UInt8] {
        var der = DERWriter()
        der.appendSequence { cert in
            cert.appendEncoded(tbs)
            cert.appendEncoded(algorithm)
            cert.appendBitString(signature)
        }
        return der.bytes
    }

    /// `shaNWithRSAEncryption` with NULL parameters.
    public static func algorithmIdentifier(_ hash: HashAlgorithm) -> [UInt8] {
        TestKeys.rsa2048[0].signatureAlgorithm(hash)
    }

    static func rsaSignatureOID(_ hash: HashAlgorithm) -> ASN1ObjectIdentifier {
        switch hash {
        case .sha1: return OIDs.sha1WithRSAEncryption
        case .sha224: return OIDs.sha224WithRSAEncryption
        case .sha256: return OIDs.sha256WithRSAEncryption
        case .sha384: return OIDs.sha384WithRSAEncryption
        case .sha512: return OIDs.sha512WithRSAEncryption
        }
    }

    static func ecdsaSignatureOID(_ hash: HashAlgorithm) -> ASN1ObjectIdentifier {
        switch hash {
        case .sha384: return OIDs.ecdsaWithSHA384
        case .sha512: return OIDs.ecdsaWithSHA512
        default: return OIDs.ecdsaWithSHA256
        }
    }

    static func digestOID(_ hash: HashAlgorithm) -> ASN1ObjectIdentifier {
        switch hash {
        case .sha1: return OIDs.sha1
        case .sha224: return OIDs.sha224
        case .sha256: return OIDs.sha256
        case .sha384: return OIDs.sha384
        case .sha512: return OIDs.sha512
        }
    }
}

extension UInt8 {
    /// The bits in reverse order (keyUsage bit 0 is the most significant bit of the first octet).
    var bitReversed: UInt8 {
        var value = self, result: UInt8 = 0
        for _ in 0 ..< 8 { result = result << 1 | value & 1; value >>= 1 }
        return result
    }
}
