/// A BIT STRING's bits: whole octets, the last of which has `unusedBitCount` padding bits.
public struct ASN1BitString: @unchecked Sendable {
    /// The bit octets (the initial unused-bits octet removed), borrowed from the input.
    public let bytes: UnsafeRawBufferPointer
    /// Padding bits at the end of the last octet, 0…7.
    public let unusedBitCount: Int

    @inlinable
    init(bytes: UnsafeRawBufferPointer, unusedBitCount: Int) {
        self.bytes = bytes
        self.unusedBitCount = unusedBitCount
    }

    /// True when the string is whole octets, as signatures and public keys are.
    @inlinable public var isOctetAligned: Bool { unusedBitCount == 0 }

    /// Bit `index` (0 = most significant bit of the first octet); false past the end, which is
    /// how X.690 §11.2.2 trims named bit lists such as keyUsage.
    @inlinable
    public func bit(_ index: Int) -> Bool {
        guard index >= 0, index < bytes.count * 8 - unusedBitCount else { return false }
        return bytes[index >> 3] & (0x80 >> UInt8(index & 7)) != 0
    }
}

extension ASN1Element {
    /// BIT STRING (X.690 §8.6): an initial octet counting unused bits (0…7, 0 when there are no
    /// bits), then the bits; DER requires the unused bits to be zero (§11.2.1). A constructed BIT
    /// STRING (BER §8.6.4) is not supported.
    @inlinable
    public func bitStringValue() throws(ASN1Error) -> ASN1BitString {
        guard !tag.isConstructed else { throw error(.unsupportedConstructedEncoding) }
        let all = content
        guard let unused = all.first, unused <= 7 else { throw error(.invalidBitString) }
        let bits = UnsafeRawBufferPointer(rebasing: all[1...])
        if bits.isEmpty && unused != 0 { throw error(.invalidBitString) }
        if rules == .der && unused != 0 {
            let mask: UInt8 = (1 << unused) - 1
            if bits[bits.count - 1] & mask != 0 { throw error(.invalidBitString) }
        }
        return ASN1BitString(bytes: bits, unusedBitCount: Int(unused))
    }
}

extension ASN1Reader {
    /// Reads a BIT STRING.
    @inlinable public mutating func readBitString() throws(ASN1Error) -> ASN1BitString {
        try read(.bitString).bitStringValue()
    }
}
