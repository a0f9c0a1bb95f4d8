#if canImport(Foundation)
    import Foundation

    extension AppReceipt {
        /// Decodes `Data` (binary or base64 text).
        public init(data: Data) throws(ReceiptError) {
            try self.init(binaryOrBase64: [UInt8](data))
        }
    }
#endif
