import AppReceipt
import Foundation

/// The retention message the operator chose for one app (`--retention-message
/// BUNDLE_ID=MESSAGE_UUID[:PRODUCT_ID]`), answered as Apple's `RealtimeResponseBody`: a
/// `message`, or with a product id an `alternateProduct` (a switch-plan message).
public struct RetentionMessage: Sendable, Hashable {
    /// The message's identifier (the UUID it was uploaded under), lowercase.
    public let messageIdentifier: String
    /// The product a switch-plan message suggests; nil for a plain message.
    public let alternateProductID: String?

    /// A message; nil when `messageIdentifier` is not a UUID or `alternateProductID` is empty,
    /// longer than 255 bytes, or holds a character other than letters, digits, `.`, `_` and `-`.
    public init?(messageIdentifier: String, alternateProductID: String? = nil) {
        guard let uuid = UUID(uuidString: messageIdentifier) else { return nil }
        if let product = alternateProductID {
            guard (1 ... 255).contains(product.utf8.count),
                product.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || ".-_".unicodeScalars.contains($0)) })
            else { return nil }
        }
        self.messageIdentifier = uuid.uuidString.lowercased()
        self.alternateProductID = alternateProductID
    }

    /// `{"message":{"messageIdentifier":…}}` or
    /// `{"alternateProduct":{"messageIdentifier":…,"productId":…}}`: exactly one of Apple's options.
    var json: String {
        let identifier = #""messageIdentifier":"# + ReceiptJSON.quoted(messageIdentifier)
        guard let alternateProductID else { return #"{"message":{"# + identifier + "}}" }
        return #"{"alternateProduct":{"# + identifier + #","productId":"# + ReceiptJSON.quoted(alternateProductID) + "}}"
    }
}
