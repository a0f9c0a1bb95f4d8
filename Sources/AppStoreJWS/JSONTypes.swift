import JSONText

/// A JSON value as it was signed (JSONText's): what this module keeps of members it has no typed
/// field for, and of header parameters other than `alg` and `x5c`.
public typealias JSONValue = JSONText.JSONValue

/// Why bytes are not the JSON this module accepts (JSONText's strict RFC 8259 reader).
public typealias JSONError = JSONText.JSONError
