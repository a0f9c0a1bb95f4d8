import DER

/// keyUsage bits (RFC 5280 §4.2.1.3), bit 0 = digitalSignature.
public struct KeyUsage: OptionSet, Sendable, Hashable {
    /// The bits, bit 0 (digitalSignature) in the least significant position.
    public let rawValue: UInt16
    /// Makes a set from its bits, bit 0 (digitalSignature) in the least significant position.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// digitalSignature (bit 0).
    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    /// nonRepudiation, also called contentCommitment (bit 1).
    public static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
    /// keyEncipherment (bit 2).
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    /// dataEncipherment (bit 3).
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    /// keyAgreement (bit 4).
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    /// keyCertSign (bit 5): the key may verify signatures on certificates.
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    /// cRLSign (bit 6).
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)
    /// encipherOnly (bit 7).
    public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    /// decipherOnly (bit 8).
    public static let decipherOnly = KeyUsage(rawValue: 1 << 8)
}

/// basicConstraints (RFC 5280 §4.2.1.9).
public struct BasicConstraints: Sendable, Hashable {
    /// cA: the subject is a certification authority.
    public var isCA: Bool
    /// pathLenConstraint: how many non-self-issued intermediates may follow.
    public var pathLength: Int?
}

/// The extensions of a v3 certificate that verification uses, plus the list of all identifiers
/// present and the critical ones this parser does not process (RFC 5280 §4.2: a certificate with
/// an unrecognised critical extension must be rejected unless a policy claims it).
public struct CertificateExtensions: Sendable, Hashable {
    /// basicConstraints (RFC 5280 §4.2.1.9), when present.
    public var basicConstraints: BasicConstraints?
    /// keyUsage (RFC 5280 §4.2.1.3), when present.
    public var keyUsage: KeyUsage?
    /// extKeyUsage (RFC 5280 §4.2.1.12): the key purpose identifiers, when present.
    public var extendedKeyUsage: [ASN1ObjectIdentifier]?
    /// certificatePolicies (RFC 5280 §4.2.1.4): the policy identifiers, when present.
    public var policies: [ASN1ObjectIdentifier]?
    /// subjectKeyIdentifier (RFC 5280 §4.2.1.2), when present.
    public var subjectKeyIdentifier: [UInt8]?
    /// The keyIdentifier of authorityKeyIdentifier (RFC 5280 §4.2.1.1), when present.
    public var authorityKeyIdentifier: [UInt8]?
    /// Every extension identifier present, in order.
    public var identifiers: [ASN1ObjectIdentifier] = []
    /// Critical extensions other than basicConstraints, keyUsage, certificatePolicies and the key
    /// identifiers: a trust policy must claim each of them or the certificate is rejected.
    public var unhandledCritical: [ASN1ObjectIdentifier] = []

    /// No extensions: what a certificate without an extensions field has.
    public init() {}

    /// True when the certificate carries an extension with this identifier.
    public func contains(_ oid: ASN1ObjectIdentifier) -> Bool { identifiers.contains(oid) }

    /// Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension (RFC 5280 §4.1), DER.
    static func read(_ reader: inout ASN1Reader) throws(CertificateError) -> CertificateExtensions {
        var result = CertificateExtensions()
        let list = try asn1(reader.read(.sequence))
        var entries = try asn1(list.children())
        if entries.isAtEnd { throw list.failure(.emptyList) }
        result.identifiers.reserveCapacity(8)   // certificates carry 3 to 10
        while !entries.isAtEnd {
            guard result.identifiers.count < X509Limits.maxExtensions else {
                throw CertificateError(.tooManyExtensions, at: entries.offset)
            }
            var fields = try asn1(entries.readSequence())
            let oidElement = try asn1(fields.read(.objectIdentifier))
            let oidBytes = try asn1(oidElement.objectIdentifierBytes())
            var critical = false
            if let flag = try asn1(fields.readOptional(.boolean)) {
                critical = try asn1(flag.boolValue())
                // critical BOOLEAN DEFAULT FALSE: DER omits FALSE (X.690 §11.5).
                if !critical { throw flag.failure(.defaultValueEncoded) }
            }
            let value = try asn1(fields.read(.octetString))
            try asn1(fields.finish())
            let oid = ASN1ObjectIdentifier(validatedContent: Array(oidBytes))
            if result.identifiers.contains(where: { $0.matches(oidBytes) }) { throw oidElement.failure(.duplicateExtension(oid)) }
            result.identifiers.append(oid)
            var handled = false
            if let known = KnownExtension(oidBytes) {
                do {
                    handled = try result.readValue(known, value)
                } catch {
                    // A value that is not DER of its type; the extension rules' own errors stay.
                    if case .encoding = error.kind { throw value.failure(.invalidExtension(oid)) }
                    throw error
                }
            }
            if critical && !handled { result.unhandledCritical.append(oid) }
        }
        return result
    }

    /// The extensions whose values this parser decodes, by their id-ce arc (RFC 5280 §4.2.1:
    /// 2.5.29.n, encoded 55 1D n).
    private enum KnownExtension: UInt8 {
        case subjectKeyIdentifier = 14, keyUsage = 15, basicConstraints = 19, certificatePolicies = 32
        case authorityKeyIdentifier = 35, extendedKeyUsage = 37

        init?(_ oid: UnsafeRawBufferPointer) {
            guard oid.count == 3, oid[0] == 0x55, oid[1] == 0x1D else { return nil }
            self.init(rawValue: oid[2])
        }
    }

    /// Decodes a known extension's value (the DER inside extnValue); returns whether
    /// verification processes it. Unknown values stay opaque.
    private mutating func readValue(_ known: KnownExtension, _ value: ASN1Element) throws(CertificateError) -> Bool {
        var reader = try asn1(value.encapsulated(rules: .der))
        let handled = try readKnownValue(known, &reader)
        try asn1(reader.finish())
        return handled
    }

    private mutating func readKnownValue(_ known: KnownExtension, _ reader: inout ASN1Reader) throws(CertificateError) -> Bool {
        switch known {
        case .basicConstraints:
            var fields = try asn1(reader.readSequence())
            var isCA = false
            if let flag = try asn1(fields.readOptional(.boolean)) {
                isCA = try asn1(flag.boolValue())
                if !isCA { throw flag.failure(.defaultValueEncoded) }
            }
            var pathLength: Int? = nil
            if !fields.isAtEnd {
                let value = try asn1(fields.readUInt64())
                pathLength = Int(clamping: value)
            }
            try asn1(fields.finish())
            basicConstraints = BasicConstraints(isCA: isCA, pathLength: pathLength)
            return true
        case .keyUsage:
            let bits = try asn1(reader.readBitString())
            var usage: UInt16 = 0
            for bit in 0 ..< 9 where bits.bit(bit) { usage |= 1 << UInt16(bit) }
            keyUsage = KeyUsage(rawValue: usage)
            return true
        case .extendedKeyUsage:
            extendedKeyUsage = try Self.readOIDList(&reader) { (reader) throws(ASN1Error) in
                try reader.read(.objectIdentifier).objectIdentifierValue()
            }
            return false
        case .certificatePolicies:
            policies = try Self.readOIDList(&reader) { (reader) throws(ASN1Error) in
                var info = try reader.readSequence()
                let policy = try info.read(.objectIdentifier).objectIdentifierValue()
                if !info.isAtEnd { _ = try info.read(.sequence) }   // policyQualifiers, not used
                try info.finish()
                return policy
            }
            return true
        case .subjectKeyIdentifier:
            subjectKeyIdentifier = Array(try asn1(reader.read(.octetString).content))
            return true
        case .authorityKeyIdentifier:
            var fields = try asn1(reader.readSequence())
            if let keyID = try asn1(fields.readOptional(.contextSpecific(0, constructed: false))) {
                authorityKeyIdentifier = Array(keyID.content)
            }
            _ = try asn1(fields.readOptional(.contextSpecific(1)))   // authorityCertIssuer
            _ = try asn1(fields.readOptional(.contextSpecific(2, constructed: false)))   // authorityCertSerialNumber
            try asn1(fields.finish())
            return true
        }
    }

    /// SEQUENCE SIZE (1..MAX) OF something that reads to an OID.
    private static func readOIDList(
        _ reader: inout ASN1Reader, _ readOne: (inout ASN1Reader) throws(ASN1Error) -> ASN1ObjectIdentifier
    ) throws(CertificateError) -> [ASN1ObjectIdentifier] {
        let list = try asn1(reader.read(.sequence))
        var items = try asn1(list.children())
        var result: [ASN1ObjectIdentifier] = []
        while !items.isAtEnd { result.append(try asn1(readOne(&items))) }
        if result.isEmpty { throw list.failure(.emptyList) }
        return result
    }
}
