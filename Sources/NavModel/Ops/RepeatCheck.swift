/// Finds an id met earlier in a list walked in order (an op's items, a stack), without a
/// set for a short list: up to `linearLimit` ids each is compared with those before it,
/// cheaper than a set's insert, which hashes the id and grows the set (BENCHMARKS.md, "The
/// instruction budget"); a longer list is checked through a set.
struct RepeatCheck {
  static let linearLimit = 16
  private var seen: Set<String>?

  /// A check for a list of `count` ids.
  init(count: Int) {
    seen = count > Self.linearLimit ? Set(minimumCapacity: count) : nil
  }

  /// Whether `id`, the next id of the list, was met before; `earlier` says whether one of
  /// the ids before it equals it (called only for a short list).
  mutating func repeats(_ id: String, earlier: () -> Bool) -> Bool {
    if seen != nil { return !seen!.insert(id).inserted }
    return earlier()
  }
}
