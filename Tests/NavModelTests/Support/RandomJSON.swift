import NavModel
import NavTestSupport

/// Random JSON documents and random edits of them, for the patch property test and vectors.
///
/// The shapes lean towards what the diff treats specially — arrays of `{id, …}` objects and
/// arrays of unique strings — with keys that need pointer escaping (`~`, `/`, empty) and
/// strings that need JSON escaping. Dictionaries are always walked in sorted key order so a
/// seed gives the same documents in every process.
struct RandomJSON {
  var rng: SplitMix64
  var maxDepth = 4

  static let keys = [
    "a", "b", "c", "d", "id", "title", "items", "", "~", "/", "a/b", "m~n", "~1", "0", "-", "ü",
  ]
  static let strings = [
    "", "x", "y", "z", "hello", "Inbox", "ü", "😀", "a\"b", "back\\slash", "line\nbreak", "tab\t", "\u{01}", "~0",
    "/", "id",
  ]
  static let specialNumbers: [Double] = [0, 1e15, -2.5e-3, 9_007_199_254_740_992, 1e21, 0.1, -7.75]

  init(seed: UInt64, maxDepth: Int = 4) {
    rng = SplitMix64(seed: seed)
    self.maxDepth = maxDepth
  }

  mutating func scalar() -> JSONValue {
    switch rng.below(8) {
    case 0: return .null
    case 1: return .bool(rng.chance(50))
    case 2, 3: return .number(Double(rng.int(-100...100)))
    // Eighths are exact in binary, so they survive any text round trip.
    case 4: return .number(Double(rng.int(-400...400)) / 8)
    case 5: return .number(rng.pick(Self.specialNumbers))
    default: return .string(rng.pick(Self.strings))
    }
  }

  mutating func value(depth: Int = 0) -> JSONValue {
    if depth >= maxDepth { return scalar() }
    switch rng.below(10) {
    case 0...2: return scalar()
    case 3, 4: return object(depth: depth)
    case 5: return .array((0..<rng.below(6)).map { _ in value(depth: depth + 1) })
    case 6, 7: return idObjectArray(depth: depth)
    case 8: return idStringArray()
    default: return .array((0..<rng.below(8)).map { _ in .number(Double(rng.int(0...5))) })
    }
  }

  /// A top-level document: usually an object with a few members, now and then any value.
  mutating func document() -> JSONValue {
    guard rng.chance(90) else { return value() }
    var members: [String: JSONValue] = [:]
    for _ in 0..<rng.int(1...6) { members[rng.pick(Self.keys)] = value(depth: 1) }
    return .object(members)
  }

  mutating func object(depth: Int) -> JSONValue {
    var members: [String: JSONValue] = [:]
    for _ in 0..<rng.below(5) { members[rng.pick(Self.keys)] = value(depth: depth + 1) }
    return .object(members)
  }

  mutating func freshIds(_ count: Int, avoiding taken: Set<String> = [], prefix: String = "i") -> [String] {
    var ids: [String] = []
    var seen = taken
    while ids.count < count {
      let id = "\(prefix)\(rng.below(40))"
      if seen.insert(id).inserted { ids.append(id) }
    }
    return ids
  }

  mutating func idObject(_ id: String, depth: Int) -> JSONValue {
    var members: [String: JSONValue] = ["id": .string(id), "title": .string(rng.pick(Self.strings))]
    if rng.chance(40) { members[rng.pick(["enabled", "width", "tag"])] = scalar() }
    if rng.chance(25), depth + 2 < maxDepth { members["children"] = idObjectArray(depth: depth + 2) }
    return .object(members)
  }

  mutating func idObjectArray(depth: Int) -> JSONValue {
    .array(freshIds(rng.below(8)).map { idObject($0, depth: depth + 1) })
  }

  mutating func idStringArray() -> JSONValue {
    .array(freshIds(rng.below(9), prefix: "s").map { .string($0) })
  }

  /// `mutate(value)` retried until it changes something (a few tries), so few pairs are equal.
  mutating func edit(_ value: JSONValue) -> JSONValue {
    var edited = mutate(value)
    for _ in 0..<4 where edited == value { edited = mutate(value) }
    return edited
  }

  /// A random edit of `value`: members added, removed and changed, array elements inserted,
  /// deleted, modified and reordered, now and then a whole subtree replaced (often by another type).
  mutating func mutate(_ value: JSONValue, depth: Int = 0) -> JSONValue {
    if rng.chance(6) { return self.value(depth: depth) }
    switch value {
    case .object(var members):
      for key in members.keys.sorted() {
        let roll = rng.below(100)
        if roll < 12 {
          members[key] = nil
        } else if roll < 45 {
          members[key] = mutate(members[key]!, depth: depth + 1)
        }
      }
      if rng.chance(30) { members[rng.pick(Self.keys)] = self.value(depth: depth + 1) }
      return .object(members)
    case .array(let elements):
      if !elements.isEmpty, elements.allSatisfy({ $0["id"]?.stringValue != nil }) {
        return .array(mutateIdentified(elements, depth: depth))
      }
      if !elements.isEmpty, elements.allSatisfy({ $0.stringValue != nil }) {
        return .array(mutateIdentified(elements, depth: depth))
      }
      return .array(mutateGeneric(elements, depth: depth))
    default:
      return rng.chance(70) ? scalar() : value
    }
  }

  /// Deletes, modifies, reorders and inserts elements that carry an identity (id objects or strings).
  mutating func mutateIdentified(_ elements: [JSONValue], depth: Int) -> [JSONValue] {
    let strings = elements.first?.stringValue != nil
    var result = elements.filter { _ in !rng.chance(20) }
    for index in result.indices where !strings && rng.chance(25) {
      guard case .object(var members) = result[index] else { continue }
      let id = members["id"]!
      members["id"] = nil
      if case .object(var changed) = mutate(.object(members), depth: depth + 1) {
        // Now and then the id itself changes, which the diff must see as remove + add.
        changed["id"] = rng.chance(8) ? .string(freshIds(1, prefix: "i").first!) : id
        result[index] = .object(changed)
      }
    }
    reorder(&result)
    let taken = Set(result.map { $0.stringValue ?? $0["id"]?.stringValue ?? "" })
    for id in freshIds(rng.below(3), avoiding: taken, prefix: strings ? "s" : "i") {
      let element: JSONValue = strings ? .string(id) : idObject(id, depth: depth + 1)
      result.insert(element, at: rng.below(result.count + 1))
    }
    // Rarely break uniqueness, so the fallback to a positional diff is exercised too.
    if rng.chance(3), let duplicate = result.first { result.append(duplicate) }
    return result
  }

  mutating func reorder(_ elements: inout [JSONValue]) {
    guard elements.count > 1 else { return }
    switch rng.below(10) {
    case 0, 1:
      let element = elements.remove(at: rng.below(elements.count))
      elements.insert(element, at: rng.below(elements.count + 1))
    case 2: elements.swapAt(rng.below(elements.count), rng.below(elements.count))
    case 3: rng.shuffle(&elements)
    case 4: elements.reverse()
    case 5, 6:
      let element = elements.removeFirst()
      elements.insert(element, at: rng.below(elements.count + 1))
    default: break
    }
  }

  mutating func mutateGeneric(_ elements: [JSONValue], depth: Int) -> [JSONValue] {
    var result = elements
    for _ in 0..<rng.below(4) {
      switch rng.below(3) {
      case 0 where !result.isEmpty: result.remove(at: rng.below(result.count))
      case 1: result.insert(value(depth: depth + 1), at: rng.below(result.count + 1))
      default:
        if !result.isEmpty {
          let index = rng.below(result.count)
          result[index] = mutate(result[index], depth: depth + 1)
        }
      }
    }
    return result
  }
}
