/// Applies RFC 6902 patches to `JSONValue` documents, all or nothing.
///
/// Atomicity comes from value semantics: operations run on a copy, and the copy is returned
/// only when every operation succeeded. The copy is cheap — copy-on-write duplicates only the
/// containers along the paths that change.
public enum PatchApplier {
  /// Returns `document` with every operation of `patch` applied in order.
  ///
  /// Each operation sees the document as the previous ones left it (RFC 6902 §3). On failure
  /// nothing is returned and the error names the operation's index and the reason.
  public static func apply(_ patch: [PatchOperation], to document: JSONValue) throws(PatchError) -> JSONValue {
    var working = document
    for (index, operation) in patch.enumerated() {
      do {
        try apply(operation, to: &working)
      } catch {
        var located = error
        located.operationIndex = index
        throw located
      }
    }
    return working
  }

  /// Applies `patch` in place; on failure `document` is left exactly as it was.
  public static func apply(_ patch: [PatchOperation], to document: inout JSONValue) throws(PatchError) {
    document = try apply(patch, to: document)
  }

  /// Applies one operation in place. On failure `document` may be half-changed (a `move` that
  /// removed but could not add), which is why the public entry points work on a copy.
  static func apply(_ operation: PatchOperation, to document: inout JSONValue) throws(PatchError) {
    switch operation {
    case .add(let path, let value):
      try add(value, at: path, field: .path, in: &document)
    case .remove(let path):
      _ = try remove(at: path, field: .path, in: &document)
    case .replace(let path, let value):
      try replace(at: path, with: value, in: &document)
    case .move(let from, let path):
      if from == path {
        // A no-op, but RFC 6902 still requires `from` to exist.
        _ = try value(at: from, field: .from, in: document)
        return
      }
      if from.isProperPrefix(of: path) {
        throw PatchError(
          code: .moveIntoOwnChild, field: .path, detail: "cannot move \(quoted(from)) into its own child \(quoted(path))")
      }
      let moved = try remove(at: from, field: .from, in: &document)
      try add(moved, at: path, field: .path, in: &document)
    case .copy(let from, let path):
      let copied = try value(at: from, field: .from, in: document)
      try add(copied, at: path, field: .path, in: &document)
    case .test(let path, let expected):
      let actual = try value(at: path, field: .path, in: document)
      guard actual == expected else {
        throw PatchError(
          code: .testFailed, field: .value,
          detail: "value at \(quoted(path)) is \(excerpt(actual)), expected \(excerpt(expected))")
      }
    }
  }

  /// Reads the value a pointer names.
  static func value(at pointer: JSONPointer, field: PatchError.Field, in document: JSONValue) throws(PatchError)
    -> JSONValue
  {
    var current = document
    for (depth, token) in pointer.tokens.enumerated() {
      switch current {
      case .object(let members):
        guard let member = members[token] else { throw missingMember(token, pointer, depth, field) }
        current = member
      case .array(let elements):
        current = elements[try existingIndex(token, count: elements.count, pointer, depth, field)]
      default:
        throw notAContainer(current, pointer, depth, field)
      }
    }
    return current
  }

  private static func add(_ value: JSONValue, at pointer: JSONPointer, field: PatchError.Field, in document: inout JSONValue)
    throws(PatchError)
  {
    guard let last = pointer.tokens.last else {
      document = value
      return
    }
    try withParent(of: pointer, field: field, in: &document) { (container) throws(PatchError) in
      switch container {
      case .object(var members):
        // Drop the enum's reference first so `members` is unique and mutates in place.
        container = .null
        members[last] = value
        container = .object(members)
      case .array(var elements):
        let position: Int
        switch JSONPointer.arrayIndex(last) {
        case .end: position = elements.count
        case .index(let index) where index <= elements.count: position = index
        case .index(let index):
          throw PatchError(
            code: .indexOutOfRange, field: field,
            detail: "\(quoted(pointer)): cannot add at index \(index) of an array of \(elements.count) elements")
        case .invalid: throw invalidIndex(last, pointer, pointer.tokens.count - 1, field)
        }
        container = .null
        elements.insert(value, at: position)
        container = .array(elements)
      default:
        throw notAContainer(container, pointer, pointer.tokens.count - 1, field)
      }
    }
  }

  private static func remove(at pointer: JSONPointer, field: PatchError.Field, in document: inout JSONValue)
    throws(PatchError) -> JSONValue
  {
    guard let last = pointer.tokens.last else {
      throw PatchError(code: .rootNotRemovable, field: field, detail: "cannot remove the whole document")
    }
    return try withParent(of: pointer, field: field, in: &document) { (container) throws(PatchError) -> JSONValue in
      switch container {
      case .object(var members):
        guard members[last] != nil else { throw missingMember(last, pointer, pointer.tokens.count - 1, field) }
        container = .null
        let removed = members.removeValue(forKey: last)!
        container = .object(members)
        return removed
      case .array(var elements):
        let index = try existingIndex(last, count: elements.count, pointer, pointer.tokens.count - 1, field)
        container = .null
        let removed = elements.remove(at: index)
        container = .array(elements)
        return removed
      default:
        throw notAContainer(container, pointer, pointer.tokens.count - 1, field)
      }
    }
  }

  private static func replace(at pointer: JSONPointer, with value: JSONValue, in document: inout JSONValue)
    throws(PatchError)
  {
    guard let last = pointer.tokens.last else {
      document = value
      return
    }
    try withParent(of: pointer, field: .path, in: &document) { (container) throws(PatchError) in
      switch container {
      case .object(var members):
        guard members[last] != nil else { throw missingMember(last, pointer, pointer.tokens.count - 1, .path) }
        container = .null
        members[last] = value
        container = .object(members)
      case .array(var elements):
        let index = try existingIndex(last, count: elements.count, pointer, pointer.tokens.count - 1, .path)
        container = .null
        elements[index] = value
        container = .array(elements)
      default:
        throw notAContainer(container, pointer, pointer.tokens.count - 1, .path)
      }
    }
  }

  /// Runs `body` on the container that holds the pointer's last token, in place.
  ///
  /// Each level takes its payload out of the enum before recursing, so a uniquely referenced
  /// document is modified without copying the untouched parts of the spine.
  private static func withParent<R>(
    of pointer: JSONPointer, field: PatchError.Field, in document: inout JSONValue,
    _ body: (inout JSONValue) throws(PatchError) -> R
  ) throws(PatchError) -> R {
    try descend(&document, depth: 0, until: pointer.tokens.count - 1, pointer, field, body)
  }

  private static func descend<R>(
    _ value: inout JSONValue, depth: Int, until end: Int, _ pointer: JSONPointer, _ field: PatchError.Field,
    _ body: (inout JSONValue) throws(PatchError) -> R
  ) throws(PatchError) -> R {
    if depth == end { return try body(&value) }
    let token = pointer.tokens[depth]
    switch value {
    case .object(var members):
      guard members[token] != nil else { throw missingMember(token, pointer, depth, field) }
      value = .null
      defer { value = .object(members) }
      return try descend(&members[token]!, depth: depth + 1, until: end, pointer, field, body)
    case .array(var elements):
      let index = try existingIndex(token, count: elements.count, pointer, depth, field)
      value = .null
      defer { value = .array(elements) }
      return try descend(&elements[index], depth: depth + 1, until: end, pointer, field, body)
    default:
      throw notAContainer(value, pointer, depth, field)
    }
  }

  private static func existingIndex(
    _ token: String, count: Int, _ pointer: JSONPointer, _ depth: Int, _ field: PatchError.Field
  ) throws(PatchError) -> Int {
    switch JSONPointer.arrayIndex(token) {
    case .index(let index) where index < count:
      return index
    case .index(let index):
      throw PatchError(
        code: .indexOutOfRange, field: field,
        detail: "\(quoted(pointer)): index \(index) is out of range for an array of \(count) elements")
    case .end:
      throw PatchError(
        code: .indexOutOfRange, field: field,
        detail: "\(quoted(pointer)): '-' names the element after the last, which only add can use")
    case .invalid:
      throw invalidIndex(token, pointer, depth, field)
    }
  }

  private static func invalidIndex(_ token: String, _ pointer: JSONPointer, _ depth: Int, _ field: PatchError.Field)
    -> PatchError
  {
    PatchError(
      code: .invalidArrayIndex, field: field,
      detail: "\(quoted(pointer)): \"\(token)\" is not an array index (digits without a leading zero, or '-')")
  }

  private static func missingMember(_ token: String, _ pointer: JSONPointer, _ depth: Int, _ field: PatchError.Field)
    -> PatchError
  {
    let parent = JSONPointer(tokens: Array(pointer.tokens[..<depth]))
    return PatchError(
      code: .pathNotFound, field: field,
      detail: "\(quoted(pointer)): the object at \(quoted(parent)) has no member \"\(token)\"")
  }

  private static func notAContainer(_ value: JSONValue, _ pointer: JSONPointer, _ depth: Int, _ field: PatchError.Field)
    -> PatchError
  {
    let at = JSONPointer(tokens: Array(pointer.tokens[..<depth]))
    return PatchError(
      code: .notAContainer, field: field,
      detail: "\(quoted(pointer)): the value at \(quoted(at)) is a \(value.typeName), not an object or array")
  }

  private static func quoted(_ pointer: JSONPointer) -> String {
    "\"\(pointer.description)\""
  }

  /// A value for an error message, cut short so a test of a large document cannot flood a log.
  private static func excerpt(_ value: JSONValue) -> String {
    let text = JSONWriter.string(value)
    return text.count <= 80 ? text : String(text.prefix(77)) + "..."
  }
}
