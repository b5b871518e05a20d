/// A resolved layout value and the JSON it was encoded to, kept so that the
/// next version's document can reuse that JSON where the value is unchanged
/// (`Layout.write(reusing:)`, `LayoutDocument`).
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
/// starts from a copy of it, re-encodes only the members whose part of the
/// value changed, and notes each such member in `changes`, from which
/// `patch(at:into:)` writes the update's patch without walking the two
/// documents. Either way the object lists its members once, so the two
/// cannot disagree on the document's shape.
///
/// Each `set` gets the part now and, when reusing, the part it was (`was`,
/// nil when writing from scratch); parts are passed, not read through
/// stored copies of the whole value, which cost more than the encoding saved.
struct ObjectWriter {
  /// A member that changed: its JSON before and after (nil when absent), or,
  /// for a member object written by a writer of its own, that writer's changes.
  struct Change {
    enum Kind {
      case value(old: JSONValue?, new: JSONValue?)
      case object([Change])
    }

    var key: String
    var kind: Kind
  }

  private let reusing: Bool
  /// The members written so far (all of them, when reusing).
  private(set) var members: [String: JSONValue]
  /// When reusing: the members whose JSON may have changed, in the order they were set.
  private(set) var changes: [Change] = []

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
  @inline(__always)
  mutating func set<Part: Equatable>(_ key: String, _ part: Part, was old: Part?, _ encode: (Part) -> JSONValue) {
    if reusing, old == part { return }
    replace(key, with: encode(part))
  }

  /// Member `key` is `encode(part)` when the part is there, else absent
  /// (`x`, `width`, `truncated`: present exactly with a width, R62).
  @inline(__always)
  mutating func setIfPresent<Part: Equatable>(
    _ key: String, _ part: Part?, was old: Part??, _ encode: (Part) -> JSONValue
  ) {
    if reusing, old == part { return }
    replace(key, with: part.map(encode))
  }

  /// Member `key` is an array of parts, each element reusing the previous
  /// element's JSON at the same index (`Array.json(reusing:_:)`).
  @inline(__always)
  mutating func set<Element: Equatable>(
    _ key: String, _ part: [Element], was old: [Element]?, _ encode: (Element, Encoded<Element>?) -> JSONValue
  ) {
    guard reusing, let old else {
      members[key] = part.json(reusing: nil, encode)
      return
    }
    if old == part { return }
    replace(key, with: part.json(reusing: members[key].map { Encoded(value: old, json: $0) }, encode))
  }

  /// Member `key` is the part's own object, `null` for nil, written by
  /// `write` from the previous part's object when there was one; the patch
  /// then names the members of that object that changed.
  @inline(__always)
  mutating func setObject<Part: Equatable>(
    _ key: String, _ part: Part?, was old: Part??, _ write: (Part, Encoded<Part>?) -> ObjectWriter
  ) {
    guard reusing, let old else {
      members[key] = part.map { write($0, nil).json } ?? .null
      return
    }
    if old == part { return }
    guard let part, let old, let previous = members[key] else {
      replace(key, with: part.map { write($0, nil).json } ?? .null)
      return
    }
    let written = write(part, Encoded(value: old, json: previous))
    members[key] = written.json
    changes.append(Change(key: key, kind: .object(written.changes)))
  }

  private mutating func replace(_ key: String, with new: JSONValue?) {
    let old = new.map { members.updateValue($0, forKey: key) } ?? members.removeValue(forKey: key)
    if reusing { changes.append(Change(key: key, kind: .value(old: old, new: new))) }
  }
}

extension ObjectWriter {
  /// Appends the patch of this object's changes, the object being at `path`:
  /// exactly `PatchBuilder.diff` of its previous JSON and `json`, which walks
  /// the same members (removals first, then the rest, each in key order)
  /// but has to find them by comparing every member.
  func patch(at path: [String], into operations: inout [PatchOperation]) {
    Self.patch(changes, at: path, into: &operations)
  }

  private static func patch(_ changes: [Change], at path: [String], into operations: inout [PatchOperation]) {
    var path = path
    let ordered =
      changes.count < 2 ? changes : changes.sorted { $0.isRemoval != $1.isRemoval ? $0.isRemoval : $0.key < $1.key }
    for change in ordered {
      path.append(change.key)
      switch change.kind {
      case .value(let old?, let new?): PatchBuilder.diff(old, new, at: path, into: &operations)
      case .value(nil, let new?): operations.append(.add(path: JSONPointer(tokens: path), value: new))
      case .value(_, nil): operations.append(.remove(path: JSONPointer(tokens: path)))
      case .object(let changes): patch(changes, at: path, into: &operations)
      }
      path.removeLast()
    }
  }
}

extension ObjectWriter.Change {
  /// Whether the member is gone: removals come first in a patch.
  var isRemoval: Bool {
    if case .value(_, nil) = kind { return true }
    return false
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
