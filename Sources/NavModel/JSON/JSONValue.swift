/// A JSON document as a value: what navd parses from the wire, diffs, and writes back.
///
/// Numbers are one case (`Double`), as in JSON itself: `1` and `1.0` are the same
/// value, and integers are exact up to 2^53. Objects are unordered; the writer
/// emits keys sorted so that equal values always have equal bytes.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])
}

extension JSONValue {
  /// The value's member `key` when it is an object, else nil.
  public subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  /// The string, if this is one.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The bool, if this is one.
  public var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  /// The number, if this is one.
  public var numberValue: Double? {
    if case .number(let n) = self { return n }
    return nil
  }

  /// The elements, if this is an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// The members, if this is an object.
  public var objectValue: [String: JSONValue]? {
    if case .object(let o) = self { return o }
    return nil
  }

  /// Whether this is `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The JSON type name, for error messages ("expected string, got number").
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

extension JSONValue {
  /// Sets the member at `path` (a member of a member … of this object) to
  /// `value`; nothing happens where the path meets a missing member on the
  /// way or a non-object.
  ///
  /// In place: each object on the way is taken out of its parent while it
  /// changes, so an object nothing else holds is not copied (setting a
  /// member on a copy of the parent's payload would copy the whole object).
  mutating func replaceMember(at path: ArraySlice<String>, with value: JSONValue) {
    guard let key = path.first, case .object(var members) = self else { return }
    self = .null
    if path.count == 1 {
      members[key] = value
    } else if let index = members.index(forKey: key) {
      members.values[index].replaceMember(at: path.dropFirst(), with: value)
    }
    self = .object(members)
  }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  /// `nil` is JSON `null`.
  public init(nilLiteral: ()) { self = .null }
  /// A bool literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An integer literal, as a JSON number.
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  /// A floating-point literal.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// A string literal.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An array literal.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// A dictionary literal, as an object (a later duplicate key wins).
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
