import JSONText
/// The time a payload says it was signed, for judging certificate validity (DESIGN §11).
enum SigningTime {
    /// `signedDate` (milliseconds since 1970) in seconds, rounded down; for an app transaction,
    /// which may carry none, `receiptCreationDate`. Read before the chain is checked but only
    /// after the signature over the payload has verified.
    static func read(_ payload: [UInt8]) throws(JWSError) -> Int64 {
        var signed: UnixMilliseconds?, created: UnixMilliseconds?
        do {
            try PayloadObject.read(payload) { (name, reader) throws(JWSPayloadError) in
                switch name {
                case "signedDate": signed = try reader.milliseconds(name)
                case "receiptCreationDate": created = try reader.milliseconds(name)
                default: try reader.skipValue()
                }
            }
        } catch .notAnObject {
            throw .missingSignedDate
        } catch {
            throw .payload(error)
        }
        guard let time = signed ?? created else { throw .missingSignedDate }
        return time.seconds
    }
}
