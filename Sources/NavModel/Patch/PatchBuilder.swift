/// Computes an RFC 6902 patch that turns one document into another.
///
/// Invariant: `PatchApplier.apply(PatchBuilder.diff(a, b), to: a) == b`, always. Each
/// operation's indices refer to the document as the operations before it left it.
///
/// The patch is shaped for subscribers, not just correct:
/// - Objects are diffed member by member; a changed scalar or a changed type is one `replace`.
/// - Arrays whose elements all carry an identity — objects with a unique string `id`, or
///   unique strings such as lists of bar button item ids — are diffed by identity: an element
///   that survives is never removed and re-added. Gone elements are removed, new ones added at
///   their position, a reorder becomes the fewest `move`s (everything on a longest increasing
///   subsequence stays put), and a changed member of a surviving element is a nested
///   operation at its final index. So renaming one item is exactly one `replace`.
/// - Other arrays keep their common prefix and suffix and pair up the middle positionally.
///
/// A changed object member named `-` is written as `add` rather than `replace` (same effect),
/// since some libraries wrongly reject `replace` at a path ending in `-`.
///
/// Object members are visited in sorted key order so the same inputs always give the same
/// patch (Swift's dictionary order changes from process to process).
public enum PatchBuilder {
  /// The operations that turn `a` into `b`; empty when they are equal.
  public static func diff(_ a: JSONValue, _ b: JSONValue) -> [PatchOperation] {
    var builder = Builder()
    builder.diffValues(a, b)
    return builder.operations
  }

  /// Appends the operations that turn `a` into `b`, two versions of the
  /// value at `path` (unescaped tokens) of a larger document: for a caller
  /// that knows which parts of a document changed (`LayoutDocument`).
  static func diff(_ a: JSONValue, _ b: JSONValue, at path: [String], into operations: inout [PatchOperation]) {
    var builder = Builder(operations: operations, path: path)
    operations = []
    builder.diffValues(a, b)
    operations = builder.operations
  }
}

extension PatchBuilder {
  /// Marks, for each position, whether it lies on one longest strictly increasing subsequence.
  ///
  /// Patience sorting with back links: O(n log n).
  static func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
    var tails: [Int] = []  // positions; values[tails[k]] is the smallest tail of a run of length k + 1
    var previous = [Int](repeating: -1, count: values.count)
    for (position, value) in values.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[position] = tails[low - 1] }
      if low == tails.count { tails.append(position) } else { tails[low] = position }
    }
    var onSequence = [Bool](repeating: false, count: values.count)
    var cursor = tails.last ?? -1
    while cursor >= 0 {
      onSequence[cursor] = true
      cursor = previous[cursor]
    }
    return onSequence
  }

  /// The fewest moves that sort `ranks` (a permutation of 0..<n), with indices that are
  /// right at the moment each move runs (R65 step 2).
  ///
  /// Elements on a longest increasing subsequence stay. Every other element is moved, in rank
  /// order, to just after the element ranked one below it. Where each element ends up, relative
  /// to the ones that stay, is known in advance, so every element gets two slots in one fixed
  /// order (where it is now, where it will be) and a Fenwick tree over the occupied slots turns
  /// "where is it now" into an index in O(log n). The whole reorder is O(n log n).
  static func moves(sorting ranks: [Int]) -> [(from: Int, to: Int)] {
    let count = ranks.count
    if count < 2 || zip(ranks, ranks.dropFirst()).allSatisfy({ $0 < $1 }) { return [] }
    let stays = longestIncreasingSubsequence(ranks)
    var positionOfRank = [Int](repeating: 0, count: count)
    for (position, rank) in ranks.enumerated() { positionOfRank[rank] = position }

    // A moved element follows the nearest staying element ranked below it (bucket 0: none).
    var buckets = [[Int]](repeating: [], count: count + 1)
    var anchor = -1
    for rank in 0..<count {
      let position = positionOfRank[rank]
      if stays[position] { anchor = position } else { buckets[anchor + 1].append(position) }
    }
    var originSlot = [Int](repeating: 0, count: count)
    var finalSlot = [Int](repeating: 0, count: count)
    var slot = 0
    for position in buckets[0] {
      finalSlot[position] = slot
      slot += 1
    }
    for position in 0..<count {
      originSlot[position] = slot
      slot += 1
      for moved in buckets[position + 1] {
        finalSlot[moved] = slot
        slot += 1
      }
    }

    var moves: [(from: Int, to: Int)] = []
    var occupied = FenwickTree(count: slot)
    for position in 0..<count { occupied.add(1, at: originSlot[position]) }
    for rank in 0..<count {
      let position = positionOfRank[rank]
      if stays[position] { continue }
      occupied.add(-1, at: originSlot[position])
      let from = occupied.prefixSum(originSlot[position])
      let to = occupied.prefixSum(finalSlot[position])
      occupied.add(1, at: finalSlot[position])
      if from != to { moves.append((from, to)) }
    }
    return moves
  }
}

private struct Builder {
  var operations: [PatchOperation] = []
  /// Unescaped tokens of the value being diffed; pushed and popped as the walk goes.
  var path: [String] = []

  func pointer(_ last: String) -> JSONPointer {
    JSONPointer(tokens: path + [last])
  }

  func pointer(_ index: Int) -> JSONPointer {
    pointer(String(index))
  }

  /// Appends the operations that turn `a` into `b`, at the current path.
  ///
  /// Two objects are walked member by member without comparing them first:
  /// the walk finds the equal members as cheaply as `==` would (which, for
  /// two objects in different storage, hashes every key), and the changed
  /// ones too.
  mutating func diffValues(_ a: JSONValue, _ b: JSONValue) {
    switch (a, b) {
    case (.object(let x), .object(let y)): diffObjects(x, y)
    case (.array(let x), .array(let y)): if x != y { diffArrays(x, y) }
    default: if a != b { operations.append(replacement(b)) }
    }
  }

  /// A `replace` of the current value — except for an object member named `-`, which gets
  /// an equivalent `add` (RFC 6902 §4.1: add on an existing member replaces it), because
  /// widely used libraries (Python's `jsonpatch`) refuse `replace` with a last token of `-`.
  func replacement(_ value: JSONValue) -> PatchOperation {
    let here = JSONPointer(tokens: path)
    // Only object members can be named "-"; array indices are digits.
    if path.last == "-" { return .add(path: here, value: value) }
    return .replace(path: here, value: value)
  }

  mutating func diffChild(_ token: String, _ a: JSONValue, _ b: JSONValue) {
    path.append(token)
    diffValues(a, b)
    path.removeLast()
  }

  /// Removals first, then additions and changes, each in key order.
  ///
  /// Both objects are walked together, so no member is looked up by hashing
  /// its key (which cost more than the rest of a small diff): in storage
  /// order when both list the same keys in the same order, else in key order.
  mutating func diffObjects(_ x: [String: JSONValue], _ y: [String: JSONValue]) {
    if let changed = Self.changedMembers(x, y) {
      for member in changed.sorted(by: { $0.key < $1.key }) { diffChild(member.key, member.old, member.new) }
      return
    }
    let old = x.sorted { $0.key < $1.key }
    let new = y.sorted { $0.key < $1.key }
    // y's members, each with x's member of the same key when there is one.
    var paired: [(key: String, old: JSONValue?, new: JSONValue)] = []
    paired.reserveCapacity(new.count)
    var i = 0
    var j = 0
    while i < old.count || j < new.count {
      if j == new.count || (i < old.count && old[i].key < new[j].key) {
        operations.append(.remove(path: pointer(old[i].key)))
        i += 1
      } else if i == old.count || new[j].key < old[i].key {
        paired.append((new[j].key, nil, new[j].value))
        j += 1
      } else {
        paired.append((new[j].key, old[i].value, new[j].value))
        i += 1
        j += 1
      }
    }
    for (key, old, new) in paired {
      if let old {
        diffChild(key, old, new)
      } else {
        operations.append(.add(path: pointer(key), value: new))
      }
    }
  }

  /// Whether two objects are one and the same storage, so equal without a
  /// walk. Dictionary has no public identity check (its `==` makes one, but
  /// then hashes every key of two different storages), so this compares the
  /// values' bits: equal bits are the same storage; different bits prove nothing.
  static func sharesStorage(_ x: [String: JSONValue], _ y: [String: JSONValue]) -> Bool {
    withUnsafeBytes(of: x) { a in withUnsafeBytes(of: y) { b in a.elementsEqual(b) } }
  }

  /// The members that may differ when `x` and `y` list the same keys in the
  /// same storage order, as an object and its copy-on-write update do (the
  /// copy keeps the original's hash seed and buckets); nil otherwise. Member
  /// objects are listed unless they share storage: walking them is how they
  /// are compared.
  static func changedMembers(
    _ x: [String: JSONValue], _ y: [String: JSONValue]
  ) -> [(key: String, old: JSONValue, new: JSONValue)]? {
    guard x.count == y.count else { return nil }
    var changed: [(key: String, old: JSONValue, new: JSONValue)] = []
    for (old, new) in zip(x, y) {
      guard old.key == new.key else { return nil }
      switch (old.value, new.value) {
      case (.object(let a), .object(let b)):
        if !sharesStorage(a, b) { changed.append((old.key, old.value, new.value)) }
      default: if old.value != new.value { changed.append((old.key, old.value, new.value)) }
      }
    }
    return changed
  }

  mutating func diffArrays(_ x: [JSONValue], _ y: [JSONValue]) {
    if let a = IdentityIndex(x), let b = IdentityIndex(y), a.kind.isCompatible(with: b.kind) {
      diffByIdentity(x, a, y, b)
    } else {
      diffPositionally(x, y)
    }
  }

  /// Keeps the common prefix and suffix, pairs up the middle, then trims or extends the tail.
  mutating func diffPositionally(_ x: [JSONValue], _ y: [JSONValue]) {
    var prefix = 0
    while prefix < x.count, prefix < y.count, x[prefix] == y[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < x.count - prefix, suffix < y.count - prefix, x[x.count - 1 - suffix] == y[y.count - 1 - suffix] {
      suffix += 1
    }
    let oldMiddle = x.count - prefix - suffix
    let newMiddle = y.count - prefix - suffix
    let paired = min(oldMiddle, newMiddle)
    for index in prefix..<(prefix + paired) where x[index] != y[index] {
      diffChild(String(index), x[index], y[index])
    }
    if oldMiddle > newMiddle {
      // From the end, so each index is still the original one when its turn comes.
      for index in stride(from: prefix + oldMiddle - 1, through: prefix + paired, by: -1) {
        operations.append(.remove(path: pointer(index)))
      }
    } else {
      for index in (prefix + paired)..<(prefix + newMiddle) {
        operations.append(.add(path: pointer(index), value: y[index]))
      }
    }
  }

  /// Removes, then moves, then adds, then recurses into survivors.
  ///
  /// That order keeps every index easy to state: removals go from the back of `x`; moves act
  /// on the survivors alone; once they are in `y`'s order, adding the new elements in `y`'s
  /// order puts each exactly at its final index; nested changes then use final indices.
  mutating func diffByIdentity(_ x: [JSONValue], _ a: IdentityIndex, _ y: [JSONValue], _ b: IdentityIndex) {
    // Each identity is looked up once; the rest is array indexing.
    let newIndexOfOld = a.keys.map { b.position[$0] }
    let oldIndexOfNew = b.keys.map { a.position[$0] }

    for index in stride(from: x.count - 1, through: 0, by: -1) where newIndexOfOld[index] == nil {
      operations.append(.remove(path: pointer(index)))
    }

    // Rank of each survivor in the target order, listed in current (x) order.
    var targetRank = [Int](repeating: -1, count: y.count)
    var survivorCount = 0
    for index in y.indices where oldIndexOfNew[index] != nil {
      targetRank[index] = survivorCount
      survivorCount += 1
    }
    var ranks: [Int] = []
    ranks.reserveCapacity(survivorCount)
    for case let target? in newIndexOfOld { ranks.append(targetRank[target]) }
    for move in PatchBuilder.moves(sorting: ranks) {
      operations.append(.move(from: pointer(move.from), path: pointer(move.to)))
    }

    for index in y.indices where oldIndexOfNew[index] == nil {
      operations.append(.add(path: pointer(index), value: y[index]))
    }
    for index in y.indices {
      guard let old = oldIndexOfNew[index] else { continue }
      if x[old] != y[index] { diffChild(String(index), x[old], y[index]) }
    }
  }
}

/// The identities of an array's elements, when it has them.
private struct IdentityIndex {
  enum Kind {
    /// Every element is an object with a string `id`.
    case idObjects
    /// Every element is a string; the string is the identity.
    case strings
    /// No elements, so either kind fits.
    case empty

    func isCompatible(with other: Kind) -> Bool {
      self == other || self == .empty || other == .empty
    }
  }

  var kind: Kind
  var keys: [String]
  var position: [String: Int]

  /// Nil when some element has no identity or two elements share one.
  init?(_ array: [JSONValue]) {
    guard let first = array.first else {
      (kind, keys, position) = (.empty, [], [:])
      return
    }
    kind = first.stringValue != nil ? .strings : .idObjects
    keys = []
    keys.reserveCapacity(array.count)
    position = Dictionary(minimumCapacity: array.count)
    for (index, element) in array.enumerated() {
      let key: String
      switch (kind, element) {
      case (.strings, .string(let string)): key = string
      case (.idObjects, .object(let members)):
        guard case .string(let id)? = members["id"] else { return nil }
        key = id
      default: return nil
      }
      if position.updateValue(index, forKey: key) != nil { return nil }
      keys.append(key)
    }
  }
}

/// Counts over a fixed range of slots with O(log n) point updates and prefix sums.
private struct FenwickTree {
  private var tree: [Int]

  init(count: Int) {
    tree = [Int](repeating: 0, count: count + 1)
  }

  mutating func add(_ delta: Int, at slot: Int) {
    var index = slot + 1
    while index < tree.count {
      tree[index] += delta
      index += index & -index
    }
  }

  /// The sum over slots strictly before `slot`.
  func prefixSum(_ slot: Int) -> Int {
    var index = slot
    var sum = 0
    while index > 0 {
      sum += tree[index]
      index -= index & -index
    }
    return sum
  }
}
