/// A resolved layout value and the JSON it was encoded to, kept so that the
/// next version's document can reuse that JSON where the value is unchanged
/// (`Layout.json(reusing:)`, `LayoutDocument`).
///
/// Reused JSON shares the previous document's storage, so besides the
/// encoding it saves, `PatchBuilder.diff` compares the part in O(1): Swift's
/// arrays and dictionaries compare equal storage as equal without a walk.
struct Encoded<Value: Equatable> {
  /// The value `json` encodes.
  var value: Value
  /// `value`'s JSON.
  var json: JSONValue
}

/// Writes one object of the layout document. From scratch, every member is
/// encoded; reusing a previous value and its JSON, the writer starts from a
/// copy of that JSON and re-encodes only the members whose part of the value
/// changed. Either way the object lists its members once, so the two cannot
/// disagree on the document's shape.
struct ObjectWriter<Value: Equatable> {
  private let value: Value
  private let previous: Value?
  /// The members written so far (all of them, when reusing).
  private(set) var members: [String: JSONValue]

  /// A writer for `value`'s object, reusing `previous` when given.
  init(_ value: Value, reusing previous: Encoded<Value>?) {
    self.value = value
    if let previous, case .object(let members) = previous.json {
      self.previous = previous.value
      self.members = members
    } else {
      self.previous = nil
      members = Dictionary(minimumCapacity: 12)
    }
  }

  /// The object.
  var json: JSONValue { .object(members) }

  /// Member `key` is `encode(part)`, where `read` picks the part of the value.
  mutating func set<Part: Equatable>(_ key: String, _ read: (Value) -> Part, _ encode: (Part) -> JSONValue) {
    let part = read(value)
    if let previous, read(previous) == part { return }
    members[key] = encode(part)
  }

  /// Member `key` is `encode(part)` when the part is there, else absent
  /// (`x`, `width`, `truncated`: present exactly with a width, R62).
  mutating func setIfPresent<Part: Equatable>(
    _ key: String, _ read: (Value) -> Part?, _ encode: (Part) -> JSONValue
  ) {
    let part = read(value)
    if let previous, read(previous) == part { return }
    members[key] = part.map(encode)
  }

  /// Member `key` is the part's own JSON, itself reusing the previous part's.
  mutating func set<Part: Equatable>(
    _ key: String, _ read: (Value) -> Part, _ encode: (Part, Encoded<Part>?) -> JSONValue
  ) {
    let part = read(value)
    var reused: Encoded<Part>?
    if let previous {
      let old = read(previous)
      if old == part { return }
      reused = members[key].map { Encoded(value: old, json: $0) }
    }
    members[key] = encode(part, reused)
  }
}

extension Array where Element: Equatable {
  /// The array's JSON: `previous`'s when equal, else each element's, reusing
  /// the previous JSON of the element at the same index.
  func json(reusing previous: Encoded<[Element]>?, _ encode: (Element, Encoded<Element>?) -> JSONValue) -> JSONValue {
    guard let previous, case .array(let old) = previous.json, old.count == previous.value.count else {
      return .array(map { encode($0, nil) })
    }
    if previous.value == self { return previous.json }
    return .array(
      indices.map { index in
        encode(self[index], index < old.count ? Encoded(value: previous.value[index], json: old[index]) : nil)
      })
  }
}
