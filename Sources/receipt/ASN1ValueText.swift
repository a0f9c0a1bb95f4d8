import DER

/// The `:VALUE` part of a dump line for primitive elements, close to what openssl prints.
enum ASN1ValueText {
    static func text(of element: ASN1Element) -> String {
        guard element.tag.tagClass == .universal else { return hexDump(element.content) }
        switch element.tag {
        case .boolean:
            return (try? element.boolValue()).map { $0 ? ":255" : ":0" } ?? ":BAD BOOLEAN"
        case .integer, ASN1Tag(.universal, number: 10, constructed: false):
            return ":" + hex(element.content)
        case .objectIdentifier:
            guard let oid = try? element.objectIdentifierValue() else { return ":BAD OBJECT" }
            return ":" + (names[oid.description] ?? oid.description)
        case .octetString:
            return hexDump(element.content)
        case .bitString, .null:
            return ""
        default:
            if let kind = ASN1StringKind(tag: element.tag), let text = try? element.stringValue(kind) {
                return ":" + text
            }
            if element.tag == .utcTime || element.tag == .generalizedTime {
                return ":" + String(decoding: element.content, as: UTF8.self)
            }
            return hexDump(element.content)
        }
    }

    static func hexDump(_ bytes: UnsafeRawBufferPointer) -> String {
        bytes.isEmpty ? "" : "[HEX DUMP]:" + hex(bytes)
    }

    static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// A few well-known identifiers under openssl's short names.
    static let names: [String: String] = [
        "1.2.840.113549.1.7.1": "pkcs7-data",
        "1.2.840.113549.1.7.2": "pkcs7-signedData",
        "1.2.840.113549.1.1.1": "rsaEncryption",
        "1.2.840.113549.1.1.5": "sha1WithRSAEncryption",
        "1.2.840.113549.1.1.11": "sha256WithRSAEncryption",
        "1.2.840.113549.1.1.12": "sha384WithRSAEncryption",
        "1.2.840.113549.1.1.13": "sha512WithRSAEncryption",
        "1.2.840.113549.1.9.1": "emailAddress",
        "1.2.840.113549.1.9.3": "contentType",
        "1.2.840.113549.1.9.4": "messageDigest",
        "1.2.840.113549.1.9.5": "signingTime",
        "1.3.14.3.2.26": "sha1",
        "2.16.840.1.101.3.4.2.1": "sha256",
        "2.16.840.1.101.3.4.2.2": "sha384",
        "2.16.840.1.101.3.4.2.3": "sha512",
        "2.5.4.3": "commonName",
        "2.5.4.6": "countryName",
        "2.5.4.10": "organizationName",
        "2.5.4.11": "organizationalUnitName",
        "2.5.29.14": "X509v3 Subject Key Identifier",
        "2.5.29.15": "X509v3 Key Usage",
        "2.5.29.19": "X509v3 Basic Constraints",
        "2.5.29.31": "X509v3 CRL Distribution Points",
        "2.5.29.32": "X509v3 Certificate Policies",
        "2.5.29.35": "X509v3 Authority Key Identifier",
        "2.5.29.37": "X509v3 Extended Key Usage",
    ]
}
