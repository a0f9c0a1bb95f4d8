import DER

extension TrustAnchor {
    /// The anchors embedded in the library and pinned: Apple Root CA, Apple Root CA - G3 and
    /// Xcode's two StoreKit testing certificates.
    package static let embedded: [TrustAnchor] =
        [appleRootCA, appleRootCAG3, storeKitTesting, storeKitTestingInXcode].compactMap { $0 }

    /// The parse of the embedded anchor whose bytes `element` is, moved into `storage` at the
    /// element's place, or `nil`. App Store receipts carry a copy of Apple Root CA and Xcode's
    /// carry the StoreKit certificate: those copies are read once per process (the anchors are
    /// parsed with the same parser when first used), not once per message.
    package static func embeddedCertificate(encodedAs element: ASN1Element, in storage: [UInt8]) -> Certificate? {
        let bytes = element.encoded
        for anchor in embedded where anchor.certificate.range.count == bytes.count {
            let same = anchor.certificate.storage.withUnsafeBytes { mine in
                ByteComparison.equal(UnsafeRawBufferPointer(rebasing: mine[anchor.certificate.range]), bytes)
            }
            if same { return anchor.certificate.rebased(into: storage, at: element.offset) }
        }
        return nil
    }

}

extension Certificate {
    /// This certificate as found at `offset` in `storage`, whose bytes there are this
    /// certificate's own: the same parse, every range moved.
    func rebased(into storage: [UInt8], at offset: Int) -> Certificate {
        let delta = offset - range.lowerBound
        func moved(_ r: Range<Int>) -> Range<Int> { r.lowerBound + delta ..< r.upperBound + delta }
        var copy = self
        copy.storage = storage
        copy.range = moved(range)
        copy.tbsRange = moved(tbsRange)
        copy.serialRange = moved(serialRange)
        copy.issuerRange = moved(issuerRange)
        copy.subjectRange = moved(subjectRange)
        copy.publicKeyInfoRange = moved(publicKeyInfoRange)
        copy.signatureRange = moved(signatureRange)
        switch publicKey {
        case .rsa(let modulus, let exponent): copy.publicKey = .rsa(modulus: moved(modulus), exponent: moved(exponent))
        case .ec(let curve, let point): copy.publicKey = .ec(curve: curve, point: moved(point))
        case .other: break
        }
        return copy
    }
}
