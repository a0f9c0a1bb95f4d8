#if canImport(Foundation)
    import Foundation

    extension TransactionReceipt {
        /// The receipt reduced to what its signer vouches for: the text of a dictionary holding only
        /// `signature` and `purchase-info`, each the canonical base64 of the bytes it decoded to, and
        /// `"environment" = "Sandbox"` when `sandbox` is true.
        ///
        /// The signature covers the version byte and the purchase-info bytes (DESIGN §14); the
        /// signer's certificate is checked through its chain. Everything else in the outer dictionary
        /// (`environment`, `pod`, `signing-status`, any other key) and the way the two values were
        /// written (line breaks, padding, key order, spacing) is the sender's choice. Every variant of
        /// one receipt therefore has one signed form per environment: a server that keys receipts by
        /// it stores each once, whatever a client adds.
        ///
        /// `environment` is not signed: the caller says which environment it admitted the receipt
        /// to (its endpoint), not which one the receipt claims.
        public func signedForm(sandbox: Bool) -> [UInt8] {
            var entries = [
                ("signature", Data(signatureBytes).base64EncodedString()),
                ("purchase-info", Data(purchaseInfoBytes).base64EncodedString()),
            ]
            if sandbox { entries.append(("environment", "Sandbox")) }
            let text = StringDictionary(entries: entries.map { StringDictionary.Entry(key: $0.0, value: $0.1, offset: 0) }).text
            return Array(text.utf8)
        }
    }
#endif
