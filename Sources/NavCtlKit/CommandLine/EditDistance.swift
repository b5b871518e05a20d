/// Closest-word suggestions for mistyped commands and options.
public enum EditDistance {
  /// The optimal-string-alignment Damerau–Levenshtein distance: insertions,
  /// deletions, substitutions and swaps of two adjacent characters each cost 1.
  public static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { rows[i][0] = i }
    for j in 0...b.count { rows[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var best = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          best = min(best, rows[i - 2][j - 2] + 1)
        }
        rows[i][j] = best
      }
    }
    return rows[a.count][b.count]
  }

  /// The candidate closest to `word`, or nil when none is close enough to be a plausible typo.
  ///
  /// Prefixes first: a candidate that starts with `word` (a prefix typed in full) wins at
  /// any length; then the candidates that share the longest beginning with `word`, at least
  /// 3 characters (`flexspace` → `flexibleSpace`, not the nearer `fixedSpace`), the nearest
  /// of them. Otherwise the distance must be at most a third of the longer word, and at
  /// least 2 is always allowed. Ties go to the earlier candidate.
  public static func closest(to word: String, in candidates: [String]) -> String? {
    let folded = word.lowercased()
    if folded.count >= 2, let prefixed = candidates.first(where: { $0.lowercased().hasPrefix(folded) }) {
      return prefixed
    }
    // Options all begin with "--": only what follows counts as a shared beginning.
    let core = String(folded.drop { $0 == "-" })
    let shared = candidates.map { commonPrefixLength(core, String($0.lowercased().drop { $0 == "-" })) }
    if let longest = shared.max(), longest >= 3 {
      let sharing = candidates.indices.filter { shared[$0] == longest }
      return sharing.min {
        distance(folded, candidates[$0].lowercased()) < distance(folded, candidates[$1].lowercased())
      }
      .map { candidates[$0] }
    }
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let d = distance(folded, candidate.lowercased())
      let allowed = max(2, max(folded.count, candidate.count) / 3)
      if d <= allowed, best == nil || d < best!.distance { best = (candidate, d) }
    }
    return best?.candidate
  }

  /// How many leading characters `a` and `b` have in common.
  static func commonPrefixLength(_ a: String, _ b: String) -> Int {
    zip(a, b).prefix { $0 == $1 }.count
  }
}
