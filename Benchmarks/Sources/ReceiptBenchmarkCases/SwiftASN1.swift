import Crypto
import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509
import _CryptoExtras

/// The Swift peers: swift-asn1 for decoding, swift-certificates for verifying, swift-crypto for
/// SHA and RSA.
///
/// - decode: `BER.parse` of the receipt (one pass that builds swift-asn1's node tree: receipts may
///   be BER), then ContentInfo → SignedData walked with swift-asn1 nodes (version, digest
///   algorithms, encapsulated content as `ASN1OctetString` (constructed BER segments joined), the
///   certificates kept as nodes, every SignerInfo read), then `BER.parse` of the payload and of
///   each value into the same typed values as ours (`Int64(berEncoded:)`, `ASN1UTF8String`,
///   `ASN1IA5String`, `ASN1OctetString`). swift-certificates' own CMS types (`CMSContentInfo`, …)
///   are internal even under `@_spi(CMS)`, so the envelope walk is written here with swift-asn1.
/// - verify: the decode above, `Certificate(derEncoded:)` for every embedded certificate, the
///   signer's RSA signature over the content with `Certificate.PublicKey.isValidSignature`, and
///   the chain with swift-certificates' `Verifier` (RFC5280Policy at the receipt's creation date,
///   roots = the anchor alone; for Xcode a small policy that claims the StoreKit certificate's
///   critical extended key usage, as our `.xcodeTesting` does). `CMS.isValidAttachedSignature`
///   would do the same steps but rejects App Store receipts: their signature algorithm is
///   `rsaEncryption`, which it cannot map to a digest. It has no memory of verified links either:
///   its warm run is the same work as cold. Apple's marker extensions are not checked (nor does OpenSSL).
/// - SHA: swift-crypto `Insecure.SHA1` / `SHA256` (BoringSSL's assembly underneath).
/// - RSA: swift-crypto `_RSA.Signing.PublicKey.isValidSignature(_:for: SHA256Digest, padding: .insecurePKCS1v1_5)`.
public enum SwiftPeers {
    // MARK: decode

    public static func decode(_ bytes: [UInt8]) throws -> Int {
        try values(bytes).purchases.count
    }

    public static func values(_ bytes: [UInt8]) throws -> PeerReceipt {
        try payload(SignedData(berEncoded: bytes).content)
    }

    /// RFC 5652 SignedData inside a ContentInfo, read with swift-asn1 nodes.
    struct SignedData {
        var digestAlgorithms: [ASN1ObjectIdentifier] = []
        var content: ArraySlice<UInt8> = []
        var certificates: [ASN1Node] = []
        var signerInfos: [SignerInfo] = []

        struct SignerInfo {
            var issuer: ASN1Node
            var serialNumber: ArraySlice<UInt8>
            var digestAlgorithm: ASN1ObjectIdentifier
            var signatureAlgorithm: ASN1ObjectIdentifier
            var signature: ArraySlice<UInt8>
        }

        static let data: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 1]
        static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 2]

        init(berEncoded bytes: [UInt8]) throws {
            let root = try BER.parse(bytes)
            self = try BER.sequence(root, identifier: .sequence) { nodes in
                guard try ASN1ObjectIdentifier(berEncoded: &nodes) == Self.signedData else { throw PeerDecodingError("not SignedData") }
                return try BER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { node in
                    try BER.sequence(node, identifier: .sequence) { nodes in try Self(signedDataNodes: &nodes) }
                }
            }
        }

        private init(signedDataNodes nodes: inout ASN1NodeCollection.Iterator) throws {
            _ = try Int(berEncoded: &nodes)
            digestAlgorithms = try BER.set(of: AlgorithmIdentifierNode.self, identifier: .set, nodes: &nodes).map(\.algorithm)
            content = try BER.sequence(of: nodes.next()) { nodes in
                guard try ASN1ObjectIdentifier(berEncoded: &nodes) == Self.data else { throw PeerDecodingError("content is not data") }
                return try BER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { node in
                    try ASN1OctetString(berEncoded: node).bytes
                }
            }
            if let certificates = try BER.optionalImplicitlyTagged(
                &nodes, tagNumber: 0, tagClass: .contextSpecific,
                { node in
                    guard case .constructed(let children) = node.content else { throw PeerDecodingError("certificates not constructed") }
                    return Array(children)
                })
            {
                self.certificates = certificates
            }
            _ = BER.optionalImplicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { $0 }
            signerInfos = try BER.set(identifier: .set, nodes: &nodes) { node in
                try BER.sequence(node, identifier: .sequence) { nodes in
                    _ = try Int(berEncoded: &nodes)
                    let (issuer, serial) = try BER.sequence(of: nodes.next()) { nodes in
                        guard let issuer = nodes.next() else { throw PeerDecodingError("no issuer") }
                        return (issuer, try ArraySlice<UInt8>(berEncoded: &nodes))
                    }
                    let digest = try AlgorithmIdentifierNode(berEncoded: &nodes).algorithm
                    if BER.optionalImplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific, { $0 }) != nil {
                        throw PeerDecodingError("signed attributes: not handled (receipts have none)")
                    }
                    let signatureAlgorithm = try AlgorithmIdentifierNode(berEncoded: &nodes).algorithm
                    let signature = try ASN1OctetString(berEncoded: &nodes).bytes
                    _ = BER.optionalImplicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { $0 }
                    return SignerInfo(
                        issuer: issuer, serialNumber: serial, digestAlgorithm: digest,
                        signatureAlgorithm: signatureAlgorithm, signature: signature)
                }
            }
        }
    }

    struct AlgorithmIdentifierNode: BERParseable, DERParseable {
        var algorithm: ASN1ObjectIdentifier
        init(derEncoded node: ASN1Node) throws { try self.init(berEncoded: node) }
        init(berEncoded node: ASN1Node) throws {
            algorithm = try BER.sequence(node, identifier: .sequence) { nodes in
                let oid = try ASN1ObjectIdentifier(berEncoded: &nodes)
                _ = nodes.next()   // parameters (NULL or absent)
                return oid
            }
        }
    }

    /// The payload SET, each attribute SEQUENCE and each in-app SET into typed values.
    static func payload(_ bytes: ArraySlice<UInt8>) throws -> PeerReceipt {
        var receipt = PeerReceipt()
        try attributes(bytes) { type, version, value in
            receipt.rawAttributes.append(RawAttribute(type: type, version: version, valueCount: value.count))
            if type == 17 {
                var purchase = PeerPurchase()
                try attributes(value) { type, version, value in
                    receipt.rawAttributes.append(RawAttribute(type: type, version: version, valueCount: value.count))
                    try purchase.assign(type, Value(bytes: value))
                }
                receipt.purchases.append(purchase)
            } else {
                try receipt.assign(type, Value(bytes: value))
            }
        }
        return receipt
    }

    static func attributes(_ bytes: ArraySlice<UInt8>, _ body: (Int, Int, ArraySlice<UInt8>) throws -> Void) throws {
        try BER.set(BER.parse(bytes), identifier: .set) { nodes in
            while let node = nodes.next() {
                let (type, version, value) = try BER.sequence(node, identifier: .sequence) { nodes in
                    (try Int(berEncoded: &nodes), try Int(berEncoded: &nodes), try ASN1OctetString(berEncoded: &nodes).bytes)
                }
                try body(type, version, value)
            }
        }
    }

    struct Value: AttributeValueDecoder {
        let bytes: ArraySlice<UInt8>
        func utf8String() throws -> String { String(try ASN1UTF8String(berEncoded: BER.parse(bytes))) }
        func ia5String() throws -> String { String(try ASN1IA5String(berEncoded: BER.parse(bytes))) }
        func integer() throws -> Int64 { try Int64(berEncoded: BER.parse(bytes)) }
        func date() throws -> Date? {
            try ASN1IA5String(berEncoded: BER.parse(bytes)).withUnsafeBytes { try ReceiptDate.parse($0) }
        }
        var octets: [UInt8] { Array(bytes) }
    }

    // MARK: verify

    /// The anchor as a swift-certificates root store, and whether the StoreKit certificate's
    /// critical extended key usage must be claimed. Built once per anchor.
    public struct Trust: Sendable {
        let roots: CertificateStore
        let claimsExtendedKeyUsage: Bool

        public init(anchorDER: [UInt8], claimsExtendedKeyUsage: Bool) throws {
            roots = CertificateStore([try Certificate(derEncoded: anchorDER)])
            self.claimsExtendedKeyUsage = claimsExtendedKeyUsage
        }
    }

    static let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 1]
    static let sha1: ASN1ObjectIdentifier = [1, 3, 14, 3, 2, 26]
    static let sha256: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]

    public static func verify(_ bytes: [UInt8], trust: Trust) async throws -> Int {
        let signedData = try SignedData(berEncoded: bytes)
        let receipt = try payload(signedData.content)
        guard signedData.signerInfos.count == 1, let signer = signedData.signerInfos.first,
            signedData.digestAlgorithms.contains(signer.digestAlgorithm)
        else { throw PeerDecodingError("expected one signer with a listed digest") }
        let certificates = try signedData.certificates.map { try Certificate(derEncoded: $0) }
        let issuer = try DistinguishedName(derEncoded: signer.issuer)
        guard
            let signingCertificate = certificates.first(where: {
                $0.issuer == issuer && $0.serialNumber.bytes[...] == signer.serialNumber
            })
        else { throw PeerDecodingError("signing certificate not found") }
        guard
            signingCertificate.publicKey.isValidSignature(
                signer.signature, for: signedData.content,
                signatureAlgorithm: try signatureAlgorithm(signer))
        else { throw PeerDecodingError("swift-certificates: content signature invalid") }
        guard let creationDate = receipt.creationDate else { throw PeerDecodingError("no creation date") }
        var verifier = Verifier(rootCertificates: trust.roots) {
            RFC5280Policy(fixedExpiryValidationTime: creationDate)
            ClaimedExtendedKeyUsage(claimed: trust.claimsExtendedKeyUsage)
        }
        let result = await verifier.validate(leaf: signingCertificate, intermediates: CertificateStore(certificates))
        guard case .validCertificate = result else { throw PeerDecodingError("swift-certificates: chain invalid: \(result)") }
        return receipt.purchases.count
    }

    /// App Store receipts say `rsaEncryption` and leave the hash to the digest algorithm.
    static func signatureAlgorithm(_ signer: SignedData.SignerInfo) throws -> Certificate.SignatureAlgorithm {
        switch (signer.signatureAlgorithm, signer.digestAlgorithm) {
        case (rsaEncryption, sha1), ([1, 2, 840, 113549, 1, 1, 5], sha1): return .sha1WithRSAEncryption
        case (rsaEncryption, sha256), ([1, 2, 840, 113549, 1, 1, 11], sha256): return .sha256WithRSAEncryption
        default: throw PeerDecodingError("unsupported signature algorithm \(signer.signatureAlgorithm)")
        }
    }

    /// Claims the critical extended key usage of Xcode's StoreKit certificate, requiring code
    /// signing (what our `.xcodeTesting` policy does); claims nothing otherwise.
    struct ClaimedExtendedKeyUsage: VerifierPolicy {
        let verifyingCriticalExtensions: [ASN1ObjectIdentifier]

        init(claimed: Bool) {
            verifyingCriticalExtensions = claimed ? [.X509ExtensionID.extendedKeyUsage] : []
        }

        mutating func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
            guard !verifyingCriticalExtensions.isEmpty else { return .meetsPolicy }
            for certificate in chain {
                guard let usage = try? certificate.extensions.extendedKeyUsage else { continue }
                if !usage.contains(.codeSigning) { return .failsToMeetPolicy(reason: "no code signing usage") }
            }
            return .meetsPolicy
        }
    }

    // MARK: digests and RSA (swift-crypto)

    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> Int { prefix(SHA256.hash(data: bytes)) }
    public static func sha1(_ bytes: UnsafeRawBufferPointer) -> Int { prefix(Insecure.SHA1.hash(data: bytes)) }

    static func prefix(_ digest: some Sequence<UInt8>) -> Int {
        digest.prefix(8).reduce(0) { $0 << 8 | Int($1) }
    }

    /// A swift-crypto RSA key with the signature and digest to check.
    public struct RSAInput: @unchecked Sendable {
        let key: _RSA.Signing.PublicKey
        let signature: _RSA.Signing.RSASignature
        let digest: SHA256Digest

        public init(subjectPublicKeyInfo: [UInt8], signature: [UInt8], message: [UInt8]) throws {
            key = try _RSA.Signing.PublicKey(derRepresentation: subjectPublicKeyInfo)
            self.signature = _RSA.Signing.RSASignature(rawRepresentation: signature)
            digest = SHA256.hash(data: message)
        }
    }

    public static func rsaVerify(_ input: RSAInput) -> Int {
        input.key.isValidSignature(input.signature, for: input.digest, padding: .insecurePKCS1v1_5) ? 1 : 0
    }
}

extension BER {
    /// A SEQUENCE given as an optional node (a required field read with `nodes.next()`).
    static func sequence<T>(of node: ASN1Node?, _ builder: (inout ASN1NodeCollection.Iterator) throws -> T) throws -> T {
        guard let node else { throw PeerDecodingError("missing SEQUENCE") }
        return try BER.sequence(node, identifier: .sequence, builder)
    }

    /// A SET OF read element by element with `builder`.
    static func set<T>(
        identifier: ASN1Identifier, nodes: inout ASN1NodeCollection.Iterator,
        _ builder: (ASN1Node) throws -> T
    ) throws -> [T] {
        guard let node = nodes.next(), node.identifier == identifier, case .constructed(let children) = node.content else {
            throw PeerDecodingError("missing SET")
        }
        return try children.map(builder)
    }
}
