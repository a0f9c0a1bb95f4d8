/// What storage needs from the operator's secrets key, which lives outside the database and is
/// implemented above this layer (`ReceiptService.SecretsKey`, AES-256-GCM): a key check value,
/// so a database opened with another key fails at start, and the conversions migration 5 makes
/// of rows written before it. Storage itself never encrypts nor hashes: it moves bytes.
public protocol SecretsCodec: Sendable {
    /// A new check value: a constant sealed under the key (stored once per database).
    func makeCheckValue() throws -> [UInt8]

    /// Whether `checkValue` was made under this key.
    func recognizes(checkValue: [UInt8]) -> Bool

    /// An app's AES-256 key sealed under the operator key, bound to `bundleID` (migration 5 seals
    /// the keys stored raw before it).
    func sealEncryptionKey(_ key: [UInt8], bundleID: String) throws -> [UInt8]

    /// The salted form of a shared secret's unsalted SHA-256, as stored before migration 5.
    func saltedSharedSecretHash(fromSHA256 digest: [UInt8]) -> [UInt8]
}
