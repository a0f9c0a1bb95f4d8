/// Which ASN.1 encoding rules a reader enforces. Chosen by the caller for each parse.
public enum EncodingRules: Sendable, Hashable {
    /// Distinguished Encoding Rules (X.690 §10–11): exactly one encoding per value. Minimal
    /// length octets, definite lengths, BOOLEAN 00/FF, primitive strings, unused BIT STRING bits
    /// zero, SET OF sorted, times in canonical form. Use for everything a signature covers.
    case der
    /// Basic Encoding Rules (X.690 §8) as real receipts use them: indefinite lengths closed by
    /// end-of-contents, constructed strings made of segments, SET OF in any order, non-minimal
    /// length octets.
    case ber
}

/// Resource bounds the reader enforces on every input.
public enum ASN1Limits: Sendable {
    /// Maximum nesting depth of an element (the outermost element has depth 0, its children 1, …).
    /// An element deeper than this is rejected with `tooDeep`, so a hostile input cannot drive
    /// the reader, its walkers or segment iteration deeper.
    public static let maxDepth = 32
}
