import NavModel

/// Reads the fields of a reply; anything missing or mistyped is a `.protocolViolation` that
/// names the method and the field. Unknown fields are ignored (that is how replies grow).
struct ReplyReader {
  let parameters: [String: JSONValue]
  /// What the reply answers, for messages ("GetState reply").
  let context: String

  init(_ parameters: [String: JSONValue], context: String) {
    self.parameters = parameters
    self.context = context
  }

  init(_ value: JSONValue, context: String) throws(NavClientError) {
    guard case .object(let members) = value else {
      throw .protocolViolation("\(context) must be an object, got \(value.typeName)")
    }
    self.init(members, context: context)
  }

  private func violation(_ field: String, _ expected: String, _ value: JSONValue?) -> NavClientError {
    .protocolViolation(
      "\(context): \"\(field)\" must be \(expected), got \(value.map(\.typeName) ?? "nothing")")
  }

  private func present(_ field: String) -> JSONValue? {
    guard let value = parameters[field], !value.isNull else { return nil }
    return value
  }

  func value(_ field: String) throws(NavClientError) -> JSONValue {
    guard let value = present(field) else { throw violation(field, "present", nil) }
    return value
  }

  func string(_ field: String) throws(NavClientError) -> String {
    guard let value = present(field), case .string(let s) = value else {
      throw violation(field, "a string", parameters[field])
    }
    return s
  }

  func optionalString(_ field: String) throws(NavClientError) -> String? {
    guard let value = present(field) else { return nil }
    guard case .string(let s) = value else { throw violation(field, "a string", value) }
    return s
  }

  func bool(_ field: String, default fallback: Bool) throws(NavClientError) -> Bool {
    guard let value = present(field) else { return fallback }
    guard case .bool(let b) = value else { throw violation(field, "a boolean", value) }
    return b
  }

  func double(_ field: String) throws(NavClientError) -> Double {
    guard let value = present(field), case .number(let n) = value else {
      throw violation(field, "a number", parameters[field])
    }
    return n
  }

  func int(_ field: String) throws(NavClientError) -> Int {
    let n = try double(field)
    guard n.rounded() == n, abs(n) <= 9_007_199_254_740_992 else { throw violation(field, "an integer", .number(n)) }
    return Int(n)
  }

  /// A version: a non-negative integer.
  func version(_ field: String) throws(NavClientError) -> UInt64 {
    guard let version = try optionalVersion(field) else { throw violation(field, "a version", nil) }
    return version
  }

  func optionalVersion(_ field: String) throws(NavClientError) -> UInt64? {
    guard let value = present(field) else { return nil }
    guard case .number(let n) = value, n >= 0, n.rounded() == n, n <= 9_007_199_254_740_992 else {
      throw violation(field, "a non-negative integer", value)
    }
    return UInt64(n)
  }

  func array(_ field: String, default fallback: [JSONValue]? = nil) throws(NavClientError) -> [JSONValue] {
    guard let value = present(field) else {
      if let fallback { return fallback }
      throw violation(field, "an array", nil)
    }
    guard case .array(let elements) = value else { throw violation(field, "an array", value) }
    return elements
  }

  func object(_ field: String) throws(NavClientError) -> JSONValue {
    guard let value = present(field), case .object = value else {
      throw violation(field, "an object", parameters[field])
    }
    return value
  }
}
