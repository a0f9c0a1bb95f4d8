import CryptoPrimitives
import DER

// DER surgery for tests: take an encoding apart and put it back together with one field
// changed (every enclosing length recomputed). Helpers for tests only: they trap on input that
// is not what the test says it is.

/// DER surgery on test encodings.
public enum DERParts {
    /// The encoded children of the constructed element that fills `bytes`.
    public static func children(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.withUnsafeBytes { raw in
            var outer = ASN1Reader(raw, rules: .ber)
            let element = try! outer.readElement()
            var reader = try! element.children()
            var parts: [[UInt8]] = []
            while !reader.isAtEnd {
                let child = try! reader.readElement()
                parts.append(Array(bytes[child.range]))
            }
            return parts
        }
    }

    /// The header tag octet of an encoding.
    public static func tagByte(_ bytes: [UInt8]) -> UInt8 { bytes[0] }

    /// Re-encodes `parts` under the identifier octet `tag` (a low tag number), DER length.
    public static func wrap(_ tag: UInt8, _ parts: [[UInt8]]) -> [UInt8] {
        let content = parts.flatMap { $0 }
        var out: [UInt8] = [tag]
        DERWriter.appendLength(content.count, to: &out)
        return out + content
    }

    /// `bytes` (a constructed element) with child `index` replaced.
    public static func replacingChild(_ index: Int, of bytes: [UInt8], with replacement: [UInt8]) -> [UInt8] {
        var parts = children(bytes)
        parts[index] = replacement
        return wrap(tagByte(bytes), parts)
    }

    /// `bytes` with the element at `path` (child indices from the outermost element) replaced by
    /// `transform` of it; every enclosing length is recomputed.
    public static func editing(_ bytes: [UInt8], at path: [Int], _ transform: ([UInt8]) -> [UInt8]) -> [UInt8] {
        guard let first = path.first else { return transform(bytes) }
        var parts = children(bytes)
        parts[first] = editing(parts[first], at: Array(path.dropFirst()), transform)
        return wrap(tagByte(bytes), parts)
    }

    /// `make(n)` for the `n` (a padding length) that makes it exactly `size` bytes long, found by
    /// moving `n` by the difference (length octets grow in steps, so a few rounds settle it).
    public static func sized(_ size: Int, _ make: (Int) -> [UInt8]) -> [UInt8] {
        var padding = max(0, size - make(0).count)
        for _ in 0 ..< 8 {
            let bytes = make(padding)
            if bytes.count == size { return bytes }
            padding += size - bytes.count
        }
        preconditionFailure("nothing of exactly \(size) bytes")
    }

    /// The element at `path`.
    public static func element(_ bytes: [UInt8], at path: [Int]) -> [UInt8] {
        path.reduce(bytes) { children($0)[$1] }
    }

    public static func encode(_ body: (inout DERWriter) -> Void) -> [UInt8] {
        var writer = DERWriter()
        body(&writer)
        return writer.bytes
    }

    /// One Extension ::= SEQUENCE { extnID, critical BOOLEAN (written as given, even FALSE), extnValue }.
    public static func rawExtension(_ oid: ASN1ObjectIdentifier, critical: Bool?, value: [UInt8]) -> [UInt8] {
        encode { der in
            der.appendSequence { entry in
                entry.appendObjectIdentifier(oid)
                if let critical { entry.appendBool(critical) }
                entry.appendOctetString(value)
            }
        }
    }

    /// `[3] { SEQUENCE OF Extension }` from encoded entries.
    public static func extensionsField(_ entries: [[UInt8]]) -> [UInt8] {
        encode { der in
            der.appendConstructed(.contextSpecific(3)) { wrapper in
                wrapper.appendSequence { list in for entry in entries { list.appendEncoded(entry) } }
            }
        }
    }
}

/// Where the fields of a v3 tbsCertificate sit (children of the tbs SEQUENCE).
public enum TBSField {
    public static let version = 0, serial = 1, signature = 2, issuer = 3, validity = 4, subject = 5, publicKey = 6, extensions = 7
}

extension TestCertificate {
    /// The certificate with its tbsCertificate edited by `edit` (a list of tbs children), signed
    /// with `issuerKey`, or with a dummy signature when `issuerKey` is nil (for parsing tests).
    public func assembled(
        issuerName: [UInt8], issuerKey: (any TestCertificateKey)?,
        outerAlgorithm: [UInt8]? = nil, edit: (inout [[UInt8]]) -> Void
    ) -> [UInt8] {
        var fields = DERParts.children(tbsCertificate(issuerName: issuerName))
        edit(&fields)
        let tbs = DERParts.wrap(0x30, fields)
        let signature =
            issuerKey?.signatureValue(digest: signatureHash.hash(tbs), hash: signatureHash)
            ?? [UInt8](repeating: 0x5A, count: 256)
        return DERParts.encode { der in
            der.appendSequence { cert in
                cert.appendEncoded(tbs)
                cert.appendEncoded(outerAlgorithm ?? TestCertificate.algorithmIdentifier(signatureHash))
                cert.appendBitString(signature)
            }
        }
    }
}
