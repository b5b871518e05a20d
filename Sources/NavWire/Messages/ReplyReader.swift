import NavModel

/// Reads the fields of a reply; anything missing or mistyped is a `MalformedReply` that
/// names the reply and the field. Unknown fields are ignored (that is how replies grow).
struct ReplyReader {
  let parameters: [String: JSONValue]
  /// What the reply answers, for messages ("GetState reply").
  let context: String

  init(_ value: JSONValue, context: String) throws(MalformedReply) {
    switch value {
    case .object(let members): parameters = members
    default: throw MalformedReply("\(context) must be an object, got \(value.typeName)")
    }
    self.context = context
  }

  private func violation(_ field: String, _ expected: String, _ value: JSONValue?) -> MalformedReply {
    MalformedReply("\(context): \"\(field)\" must be \(expected), got \(value.map(\.typeName) ?? "nothing")")
  }

  private func present(_ field: String) -> JSONValue? {
    guard let value = parameters[field], !value.isNull else { return nil }
    return value
  }

  func value(_ field: String) throws(MalformedReply) -> JSONValue {
    guard let value = present(field) else { throw violation(field, "present", nil) }
    return value
  }

  /// The field's value, `null` when absent.
  func anyValue(_ field: String) -> JSONValue { parameters[field] ?? .null }

  func string(_ field: String) throws(MalformedReply) -> String {
    guard let value = present(field), case .string(let s) = value else {
      throw violation(field, "a string", parameters[field])
    }
    return s
  }

  func optionalString(_ field: String) throws(MalformedReply) -> String? {
    guard let value = present(field) else { return nil }
    guard case .string(let s) = value else { throw violation(field, "a string", value) }
    return s
  }

  func bool(_ field: String, default fallback: Bool) throws(MalformedReply) -> Bool {
    guard let value = present(field) else { return fallback }
    guard case .bool(let b) = value else { throw violation(field, "a boolean", value) }
    return b
  }

  func double(_ field: String) throws(MalformedReply) -> Double {
    guard let value = present(field), case .number(let n) = value else {
      throw violation(field, "a number", parameters[field])
    }
    return n
  }

  func int(_ field: String) throws(MalformedReply) -> Int {
    let n = try double(field)
    guard n.rounded() == n, abs(n) <= 9_007_199_254_740_992 else { throw violation(field, "an integer", .number(n)) }
    return Int(n)
  }

  /// A version: a non-negative integer.
  func version(_ field: String) throws(MalformedReply) -> UInt64 {
    guard let version = try optionalVersion(field) else { throw violation(field, "a version", nil) }
    return version
  }

  func optionalVersion(_ field: String) throws(MalformedReply) -> UInt64? {
    guard let value = present(field) else { return nil }
    guard case .number(let n) = value, n >= 0, n.rounded() == n, n <= 9_007_199_254_740_992 else {
      throw violation(field, "a non-negative integer", value)
    }
    return UInt64(n)
  }

  func array(_ field: String, default fallback: [JSONValue]? = nil) throws(MalformedReply) -> [JSONValue] {
    guard let value = present(field) else {
      if let fallback { return fallback }
      throw violation(field, "an array", nil)
    }
    guard case .array(let elements) = value else { throw violation(field, "an array", value) }
    return elements
  }

  func object(_ field: String) throws(MalformedReply) -> JSONValue {
    guard let value = present(field), case .object = value else {
      throw violation(field, "an object", parameters[field])
    }
    return value
  }
}

extension UInt64 {
  /// The version as a JSON number (exact up to 2^53).
  var json: JSONValue { .number(Double(self)) }
}

extension Int {
  /// The integer as a JSON number.
  var json: JSONValue { .number(Double(self)) }
}
