/// Reads one JSON object member by member, remembering its path, so every
/// error names the exact field (`ops[2].item.title`) and what was expected.
public struct FieldReader {
  /// The object's members.
  public let members: [String: JSONValue]
  /// Path of this object from the request root, e.g. `ops[2].item`.
  public let path: String

  /// Reads `value`, which must be an object (else InvalidMutation at `path`).
  public init(_ value: JSONValue, path: String) throws(NavError) {
    guard case .object(let members) = value else {
      throw NavError(.invalidMutation, "expected an object, got \(value.typeName)", field: path.isEmpty ? nil : path)
    }
    self.members = members
    self.path = path
  }

  /// The request path of member `key`.
  public func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  private func typeError(_ key: String, expected: String, got value: JSONValue) -> NavError {
    NavError(.invalidMutation, "\(fieldPath(key)) must be \(expected), got \(value.typeName)", field: fieldPath(key))
  }

  /// Fails on any member not in `known`, naming it (the first in sorted order) and listing
  /// what is accepted.
  ///
  /// `known` is usually an array literal of a few names: a linear scan of it hashes nothing,
  /// and only an object with an unknown member pays for sorting.
  public func rejectUnknown(_ known: some Collection<String>) throws(NavError) {
    guard members.keys.contains(where: { !known.contains($0) }) else { return }
    for key in members.keys.sorted() where !known.contains(key) {
      throw NavError(
        .invalidMutation, "unknown field \(fieldPath(key)); expected one of: \(known.sorted().joined(separator: ", "))",
        field: fieldPath(key))
    }
  }

  /// Whether the member is present (even as `null`).
  public func has(_ key: String) -> Bool { members[key] != nil }

  /// A member that must be present (null counts as missing).
  public func required(_ key: String) throws(NavError) -> JSONValue {
    guard let value = members[key], !value.isNull else {
      throw NavError(.invalidMutation, "missing required field \(fieldPath(key))", field: fieldPath(key))
    }
    return value
  }

  /// A required string.
  public func string(_ key: String) throws(NavError) -> String {
    let value = try required(key)
    guard case .string(let s) = value else { throw typeError(key, expected: "a string", got: value) }
    return s
  }

  /// Absent and null both read as nil.
  public func optionalString(_ key: String) throws(NavError) -> String? {
    guard let value = members[key], !value.isNull else { return nil }
    guard case .string(let s) = value else { throw typeError(key, expected: "a string or null", got: value) }
    return s
  }

  /// A bool, `fallback` when absent or null.
  public func bool(_ key: String, default fallback: Bool) throws(NavError) -> Bool {
    guard let value = members[key], !value.isNull else { return fallback }
    guard case .bool(let b) = value else { throw typeError(key, expected: "a boolean", got: value) }
    return b
  }

  /// A required bool.
  public func requiredBool(_ key: String) throws(NavError) -> Bool {
    let value = try required(key)
    guard case .bool(let b) = value else { throw typeError(key, expected: "a boolean", got: value) }
    return b
  }

  /// A bool, nil when absent or null.
  public func optionalBool(_ key: String) throws(NavError) -> Bool? {
    guard let value = members[key], !value.isNull else { return nil }
    guard case .bool(let b) = value else { throw typeError(key, expected: "a boolean or null", got: value) }
    return b
  }

  /// A number, nil when absent or null.
  public func optionalNumber(_ key: String) throws(NavError) -> Double? {
    guard let value = members[key], !value.isNull else { return nil }
    guard case .number(let n) = value else { throw typeError(key, expected: "a number or null", got: value) }
    return n
  }

  /// A required number.
  public func number(_ key: String) throws(NavError) -> Double {
    let value = try required(key)
    guard case .number(let n) = value else { throw typeError(key, expected: "a number", got: value) }
    return n
  }

  /// An integer: a number with no fraction, exact in a double.
  public func integer(_ key: String, default fallback: Int) throws(NavError) -> Int {
    guard let n = try optionalNumber(key) else { return fallback }
    guard n.rounded() == n, abs(n) <= 9_007_199_254_740_992 else {
      throw NavError(
        .invalidMutation, "\(fieldPath(key)) must be an integer within ±2^53 (SEMANTICS R66)", field: fieldPath(key),
        value: JSONWriter.string(.number(n)))
    }
    return Int(n)
  }

  /// A required array.
  public func array(_ key: String) throws(NavError) -> [JSONValue] {
    let value = try required(key)
    guard case .array(let a) = value else { throw typeError(key, expected: "an array", got: value) }
    return a
  }

  /// An array that may be absent or null (read as empty).
  public func optionalArray(_ key: String) throws(NavError) -> [JSONValue] {
    guard let value = members[key], !value.isNull else { return [] }
    guard case .array(let a) = value else { throw typeError(key, expected: "an array", got: value) }
    return a
  }

  /// An array of strings (empty when absent and `optional`).
  public func strings(_ key: String, optional: Bool = true) throws(NavError) -> [String] {
    let values = optional ? try optionalArray(key) : try array(key)
    var result: [String] = []
    result.reserveCapacity(values.count)
    for (i, element) in values.enumerated() {
      guard case .string(let s) = element else {
        throw NavError(
          .invalidMutation, "\(fieldPath(key))[\(i)] must be a string, got \(element.typeName)",
          field: "\(fieldPath(key))[\(i)]")
      }
      result.append(s)
    }
    return result
  }

  /// A required object, as a reader with its path.
  public func object(_ key: String) throws(NavError) -> FieldReader {
    try FieldReader(try required(key), path: fieldPath(key))
  }

  /// An object, nil when absent or null.
  public func optionalObject(_ key: String) throws(NavError) -> FieldReader? {
    guard let value = members[key], !value.isNull else { return nil }
    return try FieldReader(value, path: fieldPath(key))
  }

  /// A string member that must be one of an enum's raw values.
  public func enumeration<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) throws(NavError) -> E
  where E.RawValue == String {
    let raw = try string(key)
    return try Self.enumCase(raw, type, field: fieldPath(key))
  }

  /// A case of a string enum, nil when absent or null; an unknown value lists the accepted ones.
  public func optionalEnumeration<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) throws(NavError)
    -> E?
  where E.RawValue == String {
    guard let raw = try optionalString(key) else { return nil }
    return try Self.enumCase(raw, type, field: fieldPath(key))
  }

  static func enumCase<E: RawRepresentable & CaseIterable>(_ raw: String, _ type: E.Type, field: String)
    throws(NavError)
    -> E
  where E.RawValue == String {
    guard let value = E(rawValue: raw) else {
      let names = E.allCases.map(\.rawValue).joined(separator: ", ")
      throw NavError(.invalidMutation, "\(field) must be one of: \(names)", field: field, value: raw)
    }
    return value
  }

  /// A colour (R68), nil when absent or null.
  public func optionalColor(_ key: String) throws(NavError) -> Color? {
    guard let raw = try optionalString(key) else { return nil }
    guard let color = Color(hex: raw) else {
      throw NavError(
        .invalidMutation, "\(fieldPath(key)) must be a colour #RRGGBB or #RRGGBBAA", field: fieldPath(key), value: raw)
    }
    return color
  }
}
