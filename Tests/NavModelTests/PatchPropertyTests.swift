import NavTestSupport
import Testing

@testable import NavModel

/// Seeded property tests of the diff: whatever two documents, applying `diff(a, b)` to `a`
/// gives `b`, and arrays with identities are changed without removing survivors.
///
/// A failure prints the seed; rerun with `NAVD_TEST_SEED=<seed>` to get the same cases.
@Suite("Patch properties")
struct PatchPropertyTests {
  static let baseSeed = SplitMix64.testSeed(default: 0x6E61_7664_5041_5443)
  /// Split so Swift Testing runs the chunks in parallel on both cores.
  static let chunks = 8
  static let casesPerChunk = 1_250

  /// Each case has its own seed, so one case can be studied without replaying the others.
  static func caseSeed(_ index: Int) -> UInt64 {
    var mixer = SplitMix64(seed: baseSeed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
    return mixer.next()
  }

  /// Case `index`: 40% navd-shaped documents after one to three navd edits, 50% random
  /// documents and a random edit of them, 10% two unrelated random documents.
  static func pair(_ index: Int) -> (kind: String, a: JSONValue, b: JSONValue) {
    let seed = caseSeed(index)
    switch index % 10 {
    case 0..<4:
      var docs = NavDocuments(seed: seed)
      let a = docs.document()
      var b = a
      var names: [String] = []
      for _ in 0..<docs.rng.int(1...3) {
        let edit = docs.edit(b)
        names.append(edit.name)
        b = edit.after
      }
      return ("navd " + names.joined(separator: "+"), a, b)
    case 4..<9:
      var random = RandomJSON(seed: seed)
      let a = random.document()
      var b = random.edit(a)
      if random.rng.chance(30) { b = random.edit(b) }
      return ("edited", a, b)
    default:
      var random = RandomJSON(seed: seed)
      return ("unrelated", random.document(), random.document())
    }
  }

  @Test("R63 apply(diff(a, b), a) == b for 10,000 random pairs", arguments: 0..<chunks)
  func applyingTheDiffGivesTheTarget(chunk: Int) {
    for index in (chunk * Self.casesPerChunk)..<((chunk + 1) * Self.casesPerChunk) {
      let (kind, a, b) = Self.pair(index)
      if let problem = Self.check(a, b, navdShaped: kind.hasPrefix("navd")) {
        Issue.record(
          """
          \(problem) — case \(index) (\(kind)); reproduce with NAVD_TEST_SEED=\(Self.baseSeed)
          a: \(JSONWriter.string(a))
          b: \(JSONWriter.string(b))
          patch: \(JSONWriter.string(JSONPatch.encode(PatchBuilder.diff(a, b))))
          """)
        return  // one failure is enough to debug; a flood hides it
      }
    }
  }

  /// Nil when every property holds for the pair, else what failed.
  static func check(_ a: JSONValue, _ b: JSONValue, navdShaped: Bool) -> String? {
    let patch = PatchBuilder.diff(a, b)
    do {
      let result = try PatchApplier.apply(patch, to: a)
      if result != b { return "apply(diff(a, b), a) != b; got \(JSONWriter.string(result))" }
    } catch {
      return "apply(diff(a, b), a) threw \(error)"
    }
    if a == b, !patch.isEmpty { return "equal documents gave a non-empty patch" }
    let text = JSONWriter.bytes(JSONPatch.encode(patch))
    guard let reparsed = try? JSONPatch.decode(JSONParser.parse(text)), reparsed == patch else {
      return "the patch does not survive JSONWriter → JSONParser → JSONPatch.decode"
    }
    if navdShaped {
      for (path, isObject) in [("/navigationBar/items", true), ("/toolbar/items", false), ("/barButtonItems", true)] {
        if let problem = checkIdentityArray(path, a, b, patch, isObject: isObject) { return problem }
      }
    }
    return nil
  }

  /// For an identity array at a fixed path: removes only for gone ids, adds only for new ids,
  /// and exactly (survivors − longest increasing subsequence) moves.
  static func checkIdentityArray(
    _ path: String, _ a: JSONValue, _ b: JSONValue, _ patch: [PatchOperation], isObject: Bool
  )
    -> String?
  {
    let tokens = path.split(separator: "/").map(String.init)
    func ids(_ document: JSONValue) -> [String] {
      var current: JSONValue? = document
      for token in tokens { current = current?[token] }
      return (current?.arrayValue ?? []).compactMap { isObject ? $0["id"]?.stringValue : $0.stringValue }
    }
    let before = ids(a)
    let after = ids(b)
    let afterSet = Set(after)
    let beforeSet = Set(before)
    let survivorRank = Dictionary(uniqueKeysWithValues: after.filter(beforeSet.contains).enumerated().map { ($1, $0) })
    let ranks = before.compactMap { survivorRank[$0] }
    var counts = (remove: 0, add: 0, move: 0)
    for operation in patch
    where operation.path.tokens.count == tokens.count + 1 && operation.path.tokens.starts(with: tokens) {
      switch operation {
      case .remove: counts.remove += 1
      case .add: counts.add += 1
      case .move: counts.move += 1
      default: break
      }
    }
    let expected = (
      remove: before.filter { !afterSet.contains($0) }.count, add: after.filter { !beforeSet.contains($0) }.count,
      move: ranks.count - quadraticLISLength(ranks)
    )
    if counts != expected {
      return "\(path): (remove, add, move) = \(counts), expected \(expected) — a survivor was removed and re-added?"
    }
    return nil
  }

  @Test("R65 reordering, inserting and removing in identity arrays of up to 300 elements")
  func largeIdentityArrays() {
    var rng = SplitMix64(seed: Self.baseSeed ^ 0x5EED)
    for round in 0..<60 {
      let count = rng.int(0...300)
      var ids = (0..<count).map { "i\($0)" }
      let a: JSONValue = [
        "items": .array(ids.map { ["id": .string($0), "title": "t"] }), "tools": .array(ids.map { .string($0) }),
      ]
      ids = ids.filter { _ in !rng.chance(10) }
      if rng.chance(50) {
        rng.shuffle(&ids)
      } else if ids.count > 1 {
        for _ in 0..<rng.int(1...5) { ids.swapAt(rng.below(ids.count), rng.below(ids.count)) }
      }
      for n in 0..<rng.below(20) { ids.insert("new\(n)", at: rng.below(ids.count + 1)) }
      let b: JSONValue = [
        "items": .array(ids.map { ["id": .string($0), "title": rng.chance(5) ? "changed" : "t"] }),
        "tools": .array(ids.map { .string($0) }),
      ]
      if let problem = Self.check(a, b, navdShaped: false)
        ?? Self.checkIdentityArray("/items", a, b, PatchBuilder.diff(a, b), isObject: true)
        ?? Self.checkIdentityArray("/tools", a, b, PatchBuilder.diff(a, b), isObject: false)
      {
        Issue.record("\(problem) — round \(round); reproduce with NAVD_TEST_SEED=\(Self.baseSeed)")
        return
      }
    }
  }
}
