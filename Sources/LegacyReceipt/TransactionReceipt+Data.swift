#if canImport(Foundation)
    import Foundation

    extension TransactionReceipt {
        /// Decodes `Data` (the text or its base64).
        public init(data: Data) throws(TransactionReceiptError) {
            try self.init([UInt8](data))
        }
    }
#endif
