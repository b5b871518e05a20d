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
/// encoded; reusing the previous version's JSON of the object, the writer
/// starts from a copy of it and re-encodes only the members whose part of
/// the value changed. Either way the object lists its members once, so the
/// two cannot disagree on the document's shape.
///
/// Each `set` gets the part now and, when reusing, the part it was (`was`,
/// nil when writing from scratch); parts are passed, not read through
/// stored copies of the whole value, which cost more than the encoding saved.
struct ObjectWriter {
  private let reusing: Bool
  /// The members written so far (all of them, when reusing).
  private(set) var members: [String: JSONValue]

  /// A writer that starts from `previous`, the object's previous JSON, when given.
  init(reusing previous: JSONValue?) {
    if case .object(let members)? = previous {
      reusing = true
      self.members = members
    } else {
      reusing = false
      members = Dictionary(minimumCapacity: 12)
    }
  }

  /// The object.
  var json: JSONValue { .object(members) }

  /// Member `key` is `encode(part)`.
  mutating func set<Part: Equatable>(_ key: String, _ part: Part, was old: Part?, _ encode: (Part) -> JSONValue) {
    if reusing, old == part { return }
    members[key] = encode(part)
  }

  /// Member `key` is `encode(part)` when the part is there, else absent
  /// (`x`, `width`, `truncated`: present exactly with a width, R62).
  mutating func setIfPresent<Part: Equatable>(
    _ key: String, _ part: Part?, was old: Part??, _ encode: (Part) -> JSONValue
  ) {
    if reusing, old == part { return }
    members[key] = part.map(encode)
  }

  /// Member `key` is the part's own JSON, itself reusing the previous part's.
  mutating func set<Part: Equatable>(
    _ key: String, _ part: Part, was old: Part?, _ encode: (Part, Encoded<Part>?) -> JSONValue
  ) {
    guard reusing, let old else {
      members[key] = encode(part, nil)
      return
    }
    if old == part { return }
    members[key] = encode(part, members[key].map { Encoded(value: old, json: $0) })
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
