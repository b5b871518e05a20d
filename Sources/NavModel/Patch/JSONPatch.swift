/// One RFC 6902 operation, as data.
///
/// Pointers are parsed once, at decode time, so a malformed pointer is a decode error naming
/// the field rather than a failure halfway through applying a patch.
public enum PatchOperation: Hashable, Sendable {
  /// Inserts into an array (shifting later elements) or sets an object member.
  case add(path: JSONPointer, value: JSONValue)
  /// Removes an existing member or element.
  case remove(path: JSONPointer)
  /// Replaces an existing value; unlike `add`, the target must exist.
  case replace(path: JSONPointer, value: JSONValue)
  /// A `remove` at `from` followed by an `add` of the same value at `path`.
  case move(from: JSONPointer, path: JSONPointer)
  /// An `add` at `path` of the value found at `from`.
  case copy(from: JSONPointer, path: JSONPointer)
  /// Fails the whole patch unless the value at `path` equals `value` (JSON equality).
  case test(path: JSONPointer, value: JSONValue)

  /// The `op` member's string.
  public var name: String {
    switch self {
    case .add: "add"
    case .remove: "remove"
    case .replace: "replace"
    case .move: "move"
    case .copy: "copy"
    case .test: "test"
    }
  }

  /// The `path` member: where the operation acts.
  public var path: JSONPointer {
    switch self {
    case .add(let path, _), .remove(let path), .replace(let path, _), .move(_, let path), .copy(_, let path),
      .test(let path, _):
      path
    }
  }

  /// The `from` member of `move` and `copy`; nil for the others.
  public var from: JSONPointer? {
    switch self {
    case .move(let from, _), .copy(let from, _): from
    case .add, .remove, .replace, .test: nil
    }
  }

  /// The `value` member of `add`, `replace` and `test`; nil for the others.
  public var value: JSONValue? {
    switch self {
    case .add(_, let value), .replace(_, let value), .test(_, let value): value
    case .remove, .move, .copy: nil
    }
  }
}

extension PatchOperation {
  /// The operation as an RFC 6902 operation object.
  public var json: JSONValue {
    var members: [String: JSONValue] = ["op": .string(name), "path": .string(path.description)]
    if let from { members["from"] = .string(from.description) }
    if let value { members["value"] = value }
    return .object(members)
  }

  /// Decodes one operation object; errors carry the field but no index (see `JSONPatch.decode`).
  ///
  /// Members RFC 6902 does not define are ignored, as §4 requires (appendix A.11).
  public init(json: JSONValue) throws(PatchError) {
    guard case .object(let members) = json else {
      throw PatchError(code: .malformedOperation, detail: "an operation must be an object, got \(json.typeName)")
    }
    guard let opValue = members["op"] else {
      throw PatchError(code: .malformedOperation, field: .op, detail: "missing \"op\"")
    }
    guard case .string(let op) = opValue else {
      throw PatchError(
        code: .malformedOperation, field: .op, detail: "\"op\" must be a string, got \(opValue.typeName)")
    }
    switch op {
    case "add": self = .add(path: try Self.pointer(members, .path), value: try Self.value(members))
    case "remove": self = .remove(path: try Self.pointer(members, .path))
    case "replace": self = .replace(path: try Self.pointer(members, .path), value: try Self.value(members))
    case "move": self = .move(from: try Self.pointer(members, .from), path: try Self.pointer(members, .path))
    case "copy": self = .copy(from: try Self.pointer(members, .from), path: try Self.pointer(members, .path))
    case "test": self = .test(path: try Self.pointer(members, .path), value: try Self.value(members))
    default:
      throw PatchError(code: .malformedOperation, field: .op, detail: "unknown op \"\(op)\"")
    }
  }

  private static func pointer(_ members: [String: JSONValue], _ field: PatchError.Field) throws(PatchError)
    -> JSONPointer
  {
    guard let member = members[field.rawValue] else {
      throw PatchError(code: .malformedOperation, field: field, detail: "missing \"\(field.rawValue)\"")
    }
    guard case .string(let text) = member else {
      throw PatchError(
        code: .malformedOperation, field: field,
        detail: "\"\(field.rawValue)\" must be a string, got \(member.typeName)")
    }
    do {
      return try JSONPointer(parsing: text)
    } catch {
      throw PatchError(code: .invalidPointer, field: field, detail: error.description)
    }
  }

  private static func value(_ members: [String: JSONValue]) throws(PatchError) -> JSONValue {
    // A present `null` is a value; only absence is an error.
    guard let value = members["value"] else {
      throw PatchError(code: .malformedOperation, field: .value, detail: "missing \"value\"")
    }
    return value
  }
}

/// A whole RFC 6902 patch document: conversion between `[PatchOperation]` and its JSON array.
public enum JSONPatch {
  /// Decodes a patch document; the error names the index of the first bad operation.
  public static func decode(_ json: JSONValue) throws(PatchError) -> [PatchOperation] {
    guard case .array(let elements) = json else {
      throw PatchError(code: .malformedOperation, detail: "a patch must be an array, got \(json.typeName)")
    }
    var operations: [PatchOperation] = []
    operations.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      do {
        operations.append(try PatchOperation(json: element))
      } catch {
        var located = error
        located.operationIndex = index
        throw located
      }
    }
    return operations
  }

  /// Encodes operations as a patch document, ready for `JSONWriter`.
  public static func encode(_ operations: [PatchOperation]) -> JSONValue {
    .array(operations.map(\.json))
  }
}
