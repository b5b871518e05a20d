import NavModel

// The stored form of a remembered outcome (Protocol/STORAGE.md, "mutation_ids"). It differs from
// the Mutate reply (`json`): it keeps who wrote each overwritten value and the field key's parts,
// so a retry after a restart is answered exactly as the first call was.

extension MutationOutcome {
  /// The outcome as the store keeps it.
  public var storedJSON: JSONValue {
    [
      "version": .number(Double(version)), "baseVersionExpired": .bool(baseVersionExpired),
      "overwritten": .array(overwritten.map(\.storedJSON)),
    ]
  }

  /// Reads `storedJSON` back (`replayed` is false: the store remembers first answers).
  public init(storedJSON json: JSONValue) throws(StoreError) {
    guard let version = json["version"]?.numberValue, version >= 0, let expired = json["baseVersionExpired"]?.boolValue,
      let overwritten = json["overwritten"]?.arrayValue
    else { throw StoreError(.corrupt, "a stored mutation outcome lacks version, baseVersionExpired or overwritten") }
    var list: [Overwrite] = []
    for element in overwritten { list.append(try Overwrite(storedJSON: element)) }
    self.init(version: UInt64(version), overwritten: list, baseVersionExpired: expired, replayed: false)
  }
}

extension Overwrite {
  var storedJSON: JSONValue {
    [
      "target": field.target.storedJSON, "field": .string(field.field), "previousValue": previousValue,
      "writtenAt": .number(Double(writtenAt)), "writtenBy": .string(writtenBy),
    ]
  }

  init(storedJSON json: JSONValue) throws(StoreError) {
    guard let target = json["target"], let field = json["field"]?.stringValue, let previous = json["previousValue"],
      let writtenAt = json["writtenAt"]?.numberValue, writtenAt >= 0, let writtenBy = json["writtenBy"]?.stringValue
    else { throw StoreError(.corrupt, "a stored overwrite lacks target, field, previousValue, writtenAt or writtenBy") }
    self.init(
      field: FieldKey(try FieldKey.Target(storedJSON: target), field), previousValue: previous,
      writtenAt: UInt64(writtenAt), writtenBy: writtenBy)
  }
}

extension FieldKey.Target {
  /// `["navigationItem", id]`, `["barButtonItem", id]`, `["appearance", target]`, `["bar", bar]`, `["scene"]`.
  var storedJSON: JSONValue {
    switch self {
    case .navigationItem(let id): ["navigationItem", .string(id)]
    case .barButtonItem(let id): ["barButtonItem", .string(id)]
    case .appearance(let target): ["appearance", .string(target.rawValue)]
    case .bar(let bar): ["bar", .string(bar.rawValue)]
    case .scene: ["scene"]
    }
  }

  init(storedJSON json: JSONValue) throws(StoreError) {
    let parts = json.arrayValue?.compactMap(\.stringValue) ?? []
    switch (parts.first, parts.dropFirst().first) {
    case ("navigationItem", let id?): self = .navigationItem(id)
    case ("barButtonItem", let id?): self = .barButtonItem(id)
    case ("appearance", let raw?) where AppearanceTarget(rawValue: raw) != nil:
      self = .appearance(AppearanceTarget(rawValue: raw)!)
    case ("bar", let raw?) where Bar(rawValue: raw) != nil: self = .bar(Bar(rawValue: raw)!)
    case ("scene", nil): self = .scene
    default: throw StoreError(.corrupt, "a stored field target is not one navd knows: \(JSONWriter.string(json))")
    }
  }
}
