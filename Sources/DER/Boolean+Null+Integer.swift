// BOOLEAN, NULL and INTEGER contents (X.690 §8.2, §8.8, §8.3; DER §11.1).
// These read an element's content whatever its tag, so they serve implicit tagging too;
// the `ASN1Reader.read…` conveniences also check the universal tag.

extension ASN1Element {
    /// BOOLEAN: one octet; DER allows only 00 and FF (X.690 §11.1).
    @inlinable
    public func boolValue() throws(ASN1Error) -> Bool {
        let bytes = content
        guard !tag.isConstructed, bytes.count == 1 else { throw error(.invalidBoolean) }
        let value = bytes[0]
        if rules == .der && value != 0x00 && value != 0xFF { throw error(.invalidBoolean) }
        return value != 0
    }

    /// NULL: no content octets (X.690 §8.8.2).
    @inlinable
    public func nullValue() throws(ASN1Error) {
        guard !tag.isConstructed, contentLength == 0 else { throw error(.invalidNull) }
    }

    /// INTEGER content octets (two's complement, big-endian), checked to be non-empty and minimal:
    /// the first nine bits are not all zeros or all ones (X.690 §8.3.2, a BER rule too).
    @inlinable
    public func integerBytes() throws(ASN1Error) -> UnsafeRawBufferPointer {
        let bytes = content
        guard !tag.isConstructed else { throw error(.constructedPrimitiveType) }
        guard let first = bytes.first else { throw error(.emptyInteger) }
        if bytes.count > 1 {
            let second = bytes[1]
            if (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) {
                throw error(.nonMinimalInteger)
            }
        }
        return bytes
    }

    /// A non-negative INTEGER's magnitude, big-endian, without the sign octet (`00` for zero).
    /// Throws `negativeInteger` for a negative value.
    @inlinable
    public func unsignedIntegerBytes() throws(ASN1Error) -> UnsafeRawBufferPointer {
        let bytes = try integerBytes()
        guard bytes[0] & 0x80 == 0 else { throw error(.negativeInteger) }
        if bytes.count > 1 && bytes[0] == 0 { return UnsafeRawBufferPointer(rebasing: bytes[1...]) }
        return bytes
    }

    /// The INTEGER as `Int64`; `integerOverflow` when it does not fit.
    @inlinable
    public func int64Value() throws(ASN1Error) -> Int64 {
        // integerBytes reports empty and non-minimal content; what else fails is too long.
        guard let value = asn1Int64(content: try integerBytes()) else { throw error(.integerOverflow) }
        return value
    }

    /// The INTEGER as `UInt64`; `negativeInteger` or `integerOverflow` when it does not fit.
    @inlinable
    public func uint64Value() throws(ASN1Error) -> UInt64 {
        let bytes = try unsignedIntegerBytes()
        guard bytes.count <= 8 else { throw error(.integerOverflow) }
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        return value
    }
}

extension ASN1Reader {
    /// Reads a BOOLEAN.
    @inlinable public mutating func readBool() throws(ASN1Error) -> Bool { try read(.boolean).boolValue() }
    /// Reads a NULL.
    @inlinable public mutating func readNull() throws(ASN1Error) { try read(.null).nullValue() }
    /// Reads an INTEGER as its minimal two's-complement octets.
    @inlinable public mutating func readIntegerBytes() throws(ASN1Error) -> UnsafeRawBufferPointer {
        try read(.integer).integerBytes()
    }
    /// Reads an INTEGER that must fit in `Int64`.
    @inlinable public mutating func readInt64() throws(ASN1Error) -> Int64 { try read(.integer).int64Value() }
    /// Reads an INTEGER that must be non-negative and fit in `UInt64`.
    @inlinable public mutating func readUInt64() throws(ASN1Error) -> UInt64 { try read(.integer).uint64Value() }
}
