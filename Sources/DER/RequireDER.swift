extension ASN1Element {
    /// Throws unless this element and everything inside it is DER: headers (X.690 §10) and the
    /// values of universal primitive types (§11, `checkUniversalValue`). For bytes a signature
    /// covers, so that parts a parser keeps raw (a Name, an unknown attribute) have one reading.
    public func requireDER() throws(ASN1Error) {
        var whole = reread(rules: .der)
        try whole.walk { (event: ASN1WalkEvent) throws(ASN1Error) in
            if case .element(let element) = event { try element.checkUniversalValue() }
        }
    }
}
