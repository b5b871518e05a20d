/// An error with a stable code, saying which field was wrong, which value, and which limit.
///
/// Each `Code` maps 1:1 to a Varlink error name, which NavWire knows (`NavErrorName`);
/// tests compare codes.
public struct NavError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Stable error codes; the raw value is the error's short name (NavWire maps it to the wire name).
  public enum Code: String, Sendable, Hashable, CaseIterable {
    /// A malformed op or value: missing field, wrong type, unknown op, bad color, bad enum case.
    case invalidMutation = "InvalidMutation"
    /// An id that names no bar button item, or no navigation item on the stack, or no member of an array.
    case itemNotFound = "ItemNotFound"
    /// An id defined twice, or listed twice in one array.
    case duplicateItem = "DuplicateItem"
    /// Pushing a navigation item whose id is already on the stack.
    case itemAlreadyOnStack = "ItemAlreadyOnStack"
    /// Popping the root item (or popping an empty stack).
    case cannotPopRoot = "CannotPopRoot"
    /// A size or count above its documented limit.
    case limitExceeded = "LimitExceeded"
    /// The state changed under the caller: a pop that expected another top item, or a field write conflict.
    case conflict = "Conflict"
    /// A scene that does not exist (reads only; a mutation creates its scene).
    case sceneNotFound = "SceneNotFound"
    /// The store could not make the mutation durable; nothing was applied.
    case storageFailed = "StorageFailed"
    /// Activating an item that is not shown, not enabled, or a space.
    case itemNotActivatable = "ItemNotActivatable"
  }

  /// The error's kind; maps 1:1 to a Varlink error name (NavWire's `NavErrorName`).
  public var code: Code
  /// What was wrong, in one sentence a person can act on.
  public var message: String
  /// Where: a path into the request, such as `ops[2].set.title`.
  public var field: String?
  /// The offending value, shortened to 80 characters.
  public var value: String?
  /// For `limitExceeded`: the limit's name and its maximum.
  public var limit: String?
  /// For `limitExceeded`: the limit's value.
  public var max: Int?
  /// The index of the op in its mutation that failed.
  public var opIndex: Int?
  /// Further parameters for the Varlink error (a conflict's current version and values).
  public var extra: [String: JSONValue] = [:]

  /// Creates an error; `extra` adds Varlink parameters beyond the common ones.
  public init(
    _ code: Code, _ message: String, field: String? = nil, value: String? = nil, limit: String? = nil,
    max: Int? = nil, opIndex: Int? = nil, extra: [String: JSONValue] = [:]
  ) {
    self.extra = extra
    self.code = code
    self.message = message
    self.field = field
    self.value = value.map(Self.shortened)
    self.limit = limit
    self.max = max
    self.opIndex = opIndex
  }

  /// `value` cut to 77 characters and "..." when it has more than 80. Only the first 81
  /// characters are counted: a refused 1 MiB title is not walked whole on the event loop.
  static func shortened(_ value: String) -> String {
    value.prefix(81).count > 80 ? String(value.prefix(77)) + "..." : value
  }

  /// `Code: message (field …)`, for logs and tests.
  public var description: String {
    var parts = ["\(code.rawValue): \(message)"]
    if let opIndex { parts.append("op \(opIndex)") }
    if let field { parts.append("field \(field)") }
    if let value { parts.append("value \(value)") }
    if let limit, let max { parts.append("limit \(limit)=\(max)") }
    return parts.joined(separator: "; ")
  }

  /// The Varlink error parameters: every set detail, by name.
  public var parameters: JSONValue {
    var members: [String: JSONValue] = ["message": .string(message)]
    if let field { members["field"] = .string(field) }
    if let value { members["value"] = .string(value) }
    if let limit { members["limit"] = .string(limit) }
    if let max { members["max"] = .number(Double(max)) }
    if let opIndex { members["opIndex"] = .number(Double(opIndex)) }
    members.merge(extra) { own, _ in own }
    return .object(members)
  }
}
