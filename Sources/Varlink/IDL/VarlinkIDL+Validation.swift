import NavModel

extension VarlinkIDL {
  /// Checks `value` (a call's or reply's parameters, or an error's) against `fields`, as a
  /// Varlink peer would: every field it holds is declared, with its type; every field not
  /// optional is there. Throws the first mismatch with its path (`conflicts[0].version`).
  public func validate(_ value: JSONValue, fields: [Field], path: String = "") throws(VarlinkIDLError) {
    try validate(value, as: .structure(fields), path: path)
  }

  /// Checks `value` against `type` (see `validate(_:fields:path:)`).
  public func validate(_ value: JSONValue, as type: FieldType, path: String) throws(VarlinkIDLError) {
    func mismatch() -> VarlinkIDLError {
      VarlinkIDLError(description: "\(path.isEmpty ? "parameters" : path): \(value.typeName) is not \(type)")
    }
    switch (type, value) {
    case (.optional, .null): return
    case (.optional(let type), _): try validate(value, as: type, path: path)
    case (.bool, .bool), (.string, .string), (.float, .number), (.object, _): return
    case (.int, .number(let n)): if n.rounded() != n { throw mismatch() }
    case (.named(let name), _):
      guard let named = types[name] else { throw VarlinkIDLError(description: "\(path): no type \(name)") }
      try validate(value, as: named, path: path)
    case (.enumeration(let names), .string(let name)): if !names.contains(name) { throw mismatch() }
    case (.array(let element), .array(let elements)):
      for (i, e) in elements.enumerated() { try validate(e, as: element, path: "\(path)[\(i)]") }
    case (.map(let element), .object(let members)):
      for (key, e) in members { try validate(e, as: element, path: join(path, key)) }
    case (.structure(let fields), .object(let members)):
      for key in members.keys where !fields.contains(where: { $0.name == key }) {
        throw VarlinkIDLError(description: "\(join(path, key)): not declared")
      }
      for field in fields {
        let member = members[field.name] ?? .null
        if case .null = member, !field.type.isOptional {
          throw VarlinkIDLError(description: "\(join(path, field.name)): missing, but \(field.type) is not optional")
        }
        try validate(member, as: field.type, path: join(path, field.name))
      }
    default: throw mismatch()
    }
  }

  private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}

extension VarlinkIDL.FieldType {
  /// Whether the field may be left out (`?T`).
  public var isOptional: Bool {
    if case .optional = self { return true }
    return false
  }
}
