/// Why an RSA public key was refused.
public enum RSAKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The modulus is zero.
    case modulusIsZero
    /// The modulus is even (an RSA modulus is a product of odd primes).
    case modulusIsEven
    /// The modulus has fewer bits than `RSAPublicKey.supportedModulusBits` allows.
    case modulusTooSmall(bits: Int)
    /// The modulus has more bits than `RSAPublicKey.supportedModulusBits` allows.
    case modulusTooLarge(bits: Int)
    /// The public exponent is even.
    case exponentIsEven
    /// The public exponent is below 3.
    case exponentTooSmall
    /// The public exponent needs more than 64 bits or is not below the modulus.
    case exponentTooLarge

    /// A short English explanation.
    public var description: String {
        switch self {
        case .modulusIsZero: "RSA modulus is zero"
        case .modulusIsEven: "RSA modulus is even"
        case .modulusTooSmall(let bits): "RSA modulus of \(bits) bits is below 1024"
        case .modulusTooLarge(let bits): "RSA modulus of \(bits) bits is above 8192"
        case .exponentIsEven: "RSA public exponent is even"
        case .exponentTooSmall: "RSA public exponent is below 3"
        case .exponentTooLarge: "RSA public exponent exceeds 64 bits or the modulus"
        }
    }
}
