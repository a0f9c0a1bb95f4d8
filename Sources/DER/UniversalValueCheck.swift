extension ASN1Element {
    /// Checks the content of a primitive element of a universal type against that type's rules
    /// under the element's rule set: BOOLEAN, INTEGER/ENUMERATED, BIT STRING, NULL, OBJECT
    /// IDENTIFIER, UTCTime, GeneralizedTime and the character strings. Other elements (other
    /// classes, constructed ones, types without rules here) pass. What `dump --strict` and the
    /// fuzzers use to call a whole input DER.
    public func checkUniversalValue() throws(ASN1Error) {
        guard tag.tagClass == .universal, !tag.isConstructed else { return }
        switch tag.number {
        case 1: _ = try boolValue()
        case 2, 10: _ = try integerBytes()
        case 3: _ = try bitStringValue()
        case 5: try nullValue()
        case 6: _ = try objectIdentifierBytes()
        case 23: _ = try utcTimeValue()
        case 24: _ = try generalizedTimeValue()
        default:
            if let kind = ASN1StringKind(tag: tag), !kind.isValid(content) { throw error(.invalidString) }
        }
    }
}
