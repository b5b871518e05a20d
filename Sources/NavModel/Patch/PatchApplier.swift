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
          code: .moveIntoOwnChild, field: .path,
          detail: "cannot move \(quoted(from)) into its own child \(quoted(path))")
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

  private static func add(
    _ value: JSONValue, at pointer: JSONPointer, field: PatchError.Field, in document: inout JSONValue
  )
    throws(PatchError)
  {
    guard let last = pointer.tokens.last else {
      document = value
      return
    }
    let depth = pointer.tokens.count - 1
    try withParent(of: pointer, field: field, in: &document) { (container) throws(PatchError) in
      if container.editObject({ $0[last] = value }) != nil { return }
      let added: Void? = try container.editArray { (elements) throws(PatchError) in
        switch JSONPointer.arrayIndex(last) {
        case .end:
          elements.append(value)
        case .index(let index) where index <= elements.count:
          elements.insert(value, at: index)
        case .index(let index):
          throw PatchError(
            code: .indexOutOfRange, field: field,
            detail: "\(quoted(pointer)): cannot add at index \(index) of an array of \(elements.count) elements")
        case .invalid:
          throw invalidIndex(last, pointer, depth, field)
        }
      }
      if added == nil { throw notAContainer(container, pointer, depth, field) }
    }
  }

  private static func remove(at pointer: JSONPointer, field: PatchError.Field, in document: inout JSONValue)
    throws(PatchError) -> JSONValue
  {
    guard let last = pointer.tokens.last else {
      throw PatchError(code: .rootNotRemovable, field: field, detail: "cannot remove the whole document")
    }
    let depth = pointer.tokens.count - 1
    return try withParent(of: pointer, field: field, in: &document) { (container) throws(PatchError) -> JSONValue in
      let fromObject = try container.editObject { (members) throws(PatchError) -> JSONValue in
        guard let removed = members.removeValue(forKey: last) else {
          throw missingMember(last, pointer, depth, field)
        }
        return removed
      }
      if let fromObject { return fromObject }
      let fromArray = try container.editArray { (elements) throws(PatchError) -> JSONValue in
        elements.remove(at: try existingIndex(last, count: elements.count, pointer, depth, field))
      }
      if let fromArray { return fromArray }
      throw notAContainer(container, pointer, depth, field)
    }
  }

  private static func replace(at pointer: JSONPointer, with value: JSONValue, in document: inout JSONValue)
    throws(PatchError)
  {
    guard let last = pointer.tokens.last else {
      document = value
      return
    }
    let depth = pointer.tokens.count - 1
    try withParent(of: pointer, field: .path, in: &document) { (container) throws(PatchError) in
      let inObject: Void? = try container.editObject { (members) throws(PatchError) in
        // Unlike add, replace must not create a member.
        guard members[last] != nil else { throw missingMember(last, pointer, depth, .path) }
        members[last] = value
      }
      if inObject != nil { return }
      let inArray: Void? = try container.editArray { (elements) throws(PatchError) in
        elements[try existingIndex(last, count: elements.count, pointer, depth, .path)] = value
      }
      if inArray == nil { throw notAContainer(container, pointer, depth, .path) }
    }
  }

  /// Runs `body` on the container that holds the pointer's last token, in place.
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
    let viaObject = try value.editObject { (members) throws(PatchError) -> R in
      guard members[token] != nil else { throw missingMember(token, pointer, depth, field) }
      return try descend(&members[token]!, depth: depth + 1, until: end, pointer, field, body)
    }
    if let viaObject { return viaObject }
    let viaArray = try value.editArray { (elements) throws(PatchError) -> R in
      let index = try existingIndex(token, count: elements.count, pointer, depth, field)
      return try descend(&elements[index], depth: depth + 1, until: end, pointer, field, body)
    }
    if let viaArray { return viaArray }
    throw notAContainer(value, pointer, depth, field)
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
    NavError.shortened(JSONWriter.string(value))
  }
}

extension JSONValue {
  /// Runs `body` on the object's members in place; nil (and `body` not run) for a non-object.
  ///
  /// The payload is moved out and `self` left null meanwhile, so the dictionary is uniquely
  /// referenced and edits do not copy it. (`switch self { case .object(var m): … }` keeps a
  /// second reference alive for the whole switch and copies on every edit.)
  fileprivate mutating func editObject<R, E: Error>(_ body: (inout [String: JSONValue]) throws(E) -> R) throws(E) -> R?
  {
    guard case .object(var members) = self else { return nil }
    self = .null
    defer { self = .object(members) }
    return try body(&members)
  }

  /// Runs `body` on the array's elements in place; nil (and `body` not run) for a non-array.
  fileprivate mutating func editArray<R, E: Error>(_ body: (inout [JSONValue]) throws(E) -> R) throws(E) -> R? {
    guard case .array(var elements) = self else { return nil }
    self = .null
    defer { self = .array(elements) }
    return try body(&elements)
  }
}
