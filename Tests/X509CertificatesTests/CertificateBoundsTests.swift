import DER
import ReceiptTestSupport
import Testing
import X509Certificates

/// The X.509 resource bounds of README's table, each at and just past its value: a clear error
/// at the element past the bound, no trap. (Work stays linear by construction; the benchmarks,
/// not unit tests, measure time.)
@Suite("X.509 resource bounds")
struct CertificateBoundsTests {
    static let leaf = NamedCertificate.chain.leaf
    static let issuerName = NamedCertificate.chain.intermediate.subjectName

    /// The leaf's extension entries (each an encoded Extension).
    static let leafExtensions: [[UInt8]] = {
        let tbs = DERParts.children(leaf.tbsCertificate(issuerName: issuerName))
        return DERParts.children(DERParts.children(tbs[TBSField.extensions])[0])
    }()

    /// An unknown, non-critical extension whose value is `count` zero octets in an OCTET STRING.
    static func filler(_ index: Int, count: Int) -> [UInt8] {
        DERParts.rawExtension(
            ASN1ObjectIdentifier("1.3.6.1.4.1.55555.\(index)"), critical: nil,
            value: DERParts.encode { $0.appendOctetString([UInt8](repeating: 0, count: count)) })
    }

    static func certificate(extensions: [[UInt8]]) -> [UInt8] {
        leaf.assembled(issuerName: issuerName, issuerKey: nil) { $0[TBSField.extensions] = DERParts.extensionsField(extensions) }
    }

    /// A certificate of exactly `size` bytes: the leaf padded with one filler extension.
    static func certificate(ofSize size: Int) -> [UInt8] {
        DERParts.sized(size) { certificate(extensions: leafExtensions + [filler(0, count: $0)]) }
    }

    @Test func certificateSizeAtAndPastTheLimit() throws {
        let limit = X509Limits.maxCertificateSize
        #expect(limit == 16 * 1024)
        let atLimit = Self.certificate(ofSize: limit)
        #expect(atLimit.count == limit)
        #expect(try Certificate(derEncoded: atLimit).extensions.identifiers.count == Self.leafExtensions.count + 1)
        let past = Self.certificate(ofSize: limit + 1)
        let error = #expect(throws: CertificateError.self) { try Certificate(derEncoded: past) }
        #expect(error == CertificateError(.certificateTooLarge(limit + 1), at: 0))
        // Far past it, the header alone decides (a 1 MiB "certificate" is not walked).
        let huge = DERParts.wrap(0x30, [[UInt8](repeating: 0x05, count: 1 << 20)])
        #expect(throws: CertificateError(.certificateTooLarge(huge.count), at: 0)) { try Certificate(derEncoded: huge) }
        #expect(throws: CertificateError(.certificateTooLarge(huge.count), at: 0)) { try TrustAnchor(derEncoded: huge) }
    }

    /// A Name of exactly `size` bytes: one RDN whose CN pads it.
    static func name(ofSize size: Int) -> [UInt8] {
        DERParts.sized(size) { length in
            NameParts.name([NameParts.rdn(NameParts.attribute(NameParts.commonName, NameParts.utf8(String(repeating: "n", count: length))))])
        }
    }

    @Test func nameSizeAtAndPastTheLimit() throws {
        let limit = X509Limits.maxNameSize
        #expect(limit == 4 * 1024)
        for place in [NamedCertificate.issuer, NamedCertificate.subject] {
            let atLimit = Self.name(ofSize: limit)
            #expect(atLimit.count == limit)
            #expect((try? Certificate(derEncoded: place(atLimit))) != nil)
            let past = Self.name(ofSize: limit + 1)
            let der = place(past)
            let error = #expect(throws: CertificateError.self) { try Certificate(derEncoded: der) }
            #expect(error?.kind == .invalidName(.tooLarge))
            #expect(error?.offset == NamedCertificate.offset(of: past, in: der, after: 10))
        }
    }

    @Test func extensionCountAtAndPastTheLimit() throws {
        let limit = X509Limits.maxExtensions
        #expect(limit == 32)
        let fillers = (0 ..< limit + 1 - Self.leafExtensions.count).map { Self.filler($0, count: 1) }
        let atLimit = Self.certificate(extensions: Self.leafExtensions + fillers.dropLast())
        #expect(try Certificate(derEncoded: atLimit).extensions.identifiers.count == limit)
        let past = Self.certificate(extensions: Self.leafExtensions + fillers)
        let error = #expect(throws: CertificateError.self) { try Certificate(derEncoded: past) }
        #expect(error?.kind == .tooManyExtensions)
        // At the extension past the limit: the last one.
        #expect(error.map { Array(past[$0.offset...].prefix(fillers.last!.count)) } == fillers.last!)
    }
}
