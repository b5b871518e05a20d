import NavTestSupport
import Testing

@testable import NavModel

private func json(_ text: String) -> JSONValue {
  do { return try JSONParser.parse(text) } catch { fatalError("bad test JSON \(text): \(error)") }
}

private func pointer(_ text: String) -> JSONPointer {
  do { return try JSONPointer(parsing: text) } catch { fatalError("bad test pointer \(text): \(error)") }
}

/// Diffs, checks the invariant, and returns the patch as compact JSON text for exact assertions.
private func diff(_ a: JSONValue, _ b: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) -> [PatchOperation]
{
  let patch = PatchBuilder.diff(a, b)
  #expect(
    (try? PatchApplier.apply(patch, to: a)) == b,
    "apply(diff(a, b), a) != b: \(JSONWriter.string(JSONPatch.encode(patch)))",
    sourceLocation: sourceLocation)
  return patch
}

private func items(_ ids: [String], titled prefix: String = "T") -> JSONValue {
  .array(ids.map { ["id": .string($0), "title": .string("\(prefix) \($0)")] })
}

@Suite("PatchBuilder: objects and scalars")
struct PatchBuilderBasicTests {
  @Test("R63 equal documents give an empty patch")
  func equal() {
    let document = json(#"{"a":[1,{"b":null}],"c":"d"}"#)
    #expect(diff(document, document).isEmpty)
    #expect(diff(json("1"), json("1.0")).isEmpty)
  }

  @Test("R64 a changed scalar or a changed type is one replace")
  func replaceScalar() {
    #expect(diff(json(#"{"a":1}"#), json(#"{"a":2}"#)) == [.replace(path: pointer("/a"), value: 2)])
    #expect(diff(json(#"{"a":1}"#), json(#"{"a":[1]}"#)) == [.replace(path: pointer("/a"), value: [1])])
    #expect(diff(json(#"{"a":{}}"#), json(#"{"a":[]}"#)) == [.replace(path: pointer("/a"), value: [])])
    #expect(diff(json("true"), json(#"{"x":1}"#)) == [.replace(path: .root, value: ["x": 1])])
  }

  @Test("R64 objects are diffed member by member, removals first, in key order")
  func objects() {
    let patch = diff(json(#"{"a":1,"b":{"x":1,"y":2},"z":0}"#), json(#"{"b":{"x":1,"y":3},"c":[],"d":null}"#))
    #expect(
      patch == [
        .remove(path: pointer("/a")), .remove(path: pointer("/z")), .replace(path: pointer("/b/y"), value: 3),
        .add(path: pointer("/c"), value: []), .add(path: pointer("/d"), value: nil),
      ])
  }

  @Test("member names are escaped in paths")
  func escapedKeys() {
    let patch = diff(json(#"{"a/b":1,"m~n":{"":1}}"#), json(#"{"a/b":2,"m~n":{"":2}}"#))
    #expect(patch.map(\.path.description) == ["/a~1b", "/m~0n/"])
  }

  @Test("a changed member named '-' is an add, which Python's jsonpatch accepts where it refuses replace")
  func dashMember() {
    #expect(diff(["-": 1], ["-": 2]) == [.add(path: pointer("/-"), value: 2)])
    #expect(diff(["-": ["a": 1]], ["-": ["a": 2]]) == [.replace(path: pointer("/-/a"), value: 2)])
  }
}

@Suite("PatchBuilder: arrays by identity")
struct PatchBuilderIdentityTests {
  @Test("R64 R65 changing one title of one item is exactly one replace")
  func oneTitle() {
    let before = json(#"{"navigationBar":{"items":[]}}"#)
    var a = before
    var b = before
    a = ["navigationBar": ["items": items(["root", "inbox", "thread", "message"])]]
    b = a
    if case .array(var list) = b["navigationBar"]!["items"]!, case .object(var item) = list[2] {
      item["title"] = "Renamed"
      list[2] = .object(item)
      b = ["navigationBar": ["items": .array(list)]]
    }
    #expect(diff(a, b) == [.replace(path: pointer("/navigationBar/items/2/title"), value: "Renamed")])
  }

  @Test("R65 a reorder is only moves: one element moved is one move")
  func oneMove() {
    let patch = diff(items(["a", "b", "c", "d", "e"]), items(["a", "d", "b", "c", "e"]))
    #expect(patch == [.move(from: pointer("/3"), path: pointer("/1"))])
  }

  @Test("a reversal keeps one element and moves the rest")
  func reversal() {
    let ids = (0..<10).map { "i\($0)" }
    let patch = diff(items(ids), items(ids.reversed()))
    #expect(patch.count == 9)
    #expect(patch.allSatisfy { if case .move = $0 { true } else { false } })
  }

  @Test("a large shuffle uses exactly n - LIS moves")
  func shuffle() {
    var rng = SplitMix64(seed: 7)
    var ids = (0..<300).map { "i\($0)" }
    let before = items(ids)
    rng.shuffle(&ids)
    let patch = diff(before, items(ids))
    let ranks = ids.map { Int($0.dropFirst())! }
    #expect(patch.count == ranks.count - quadraticLISLength(ranks))
    #expect(patch.allSatisfy { if case .move = $0 { true } else { false } })
  }

  @Test("R65 R29 kept items are never removed and re-added; new ones are added where they belong")
  func keptStayPut() {
    let a = items(["a", "b", "c", "d"])
    var list = items(["x", "d", "b", "y", "a"]).arrayValue!
    list[1] = ["id": "d", "title": "new title"]
    let patch = diff(a, .array(list))
    #expect(
      patch == [
        .remove(path: pointer("/2")),  // c: [a, b, d]
        // Target order d, b, a: any one of them may stay; d does, b and a move after it.
        .move(from: pointer("/1"), path: pointer("/2")),  // [a, d, b]
        .move(from: pointer("/0"), path: pointer("/2")),  // [d, b, a]
        .add(path: pointer("/0"), value: ["id": "x", "title": "T x"]),
        .add(path: pointer("/3"), value: ["id": "y", "title": "T y"]),
        .replace(path: pointer("/1/title"), value: "new title"),
      ])
  }

  @Test("R65 arrays of unique strings (bar button ids) are diffed by identity")
  func stringIdentity() {
    #expect(
      diff(["edit", "add", "search"], ["search", "edit", "add"]) == [.move(from: pointer("/2"), path: pointer("/0"))])
    #expect(diff(["edit", "add", "search"], ["edit", "search"]) == [.remove(path: pointer("/1"))])
    #expect(diff(["edit", "search"], ["done", "edit", "search"]) == [.add(path: pointer("/0"), value: "done")])
    #expect(diff([], ["a", "b"]) == [.add(path: pointer("/0"), value: "a"), .add(path: pointer("/1"), value: "b")])
    #expect(diff(["a", "b"], []) == [.remove(path: pointer("/1")), .remove(path: pointer("/0"))])
  }

  @Test("a pushed item that shares the old top's bar button items adds one item and touches nothing else")
  func pushSharingButtons() {
    let a: JSONValue = ["items": [["id": "inbox", "rightBarButtonItems": ["compose", "edit"]]]]
    let pushed: JSONValue = ["id": "thread", "rightBarButtonItems": ["compose", "edit"]]
    let b: JSONValue = ["items": [["id": "inbox", "rightBarButtonItems": ["compose", "edit"]], pushed]]
    #expect(diff(a, b) == [.add(path: pointer("/items/1"), value: pushed)])
    // Replacing the top item while keeping one shared button: only the other button changes.
    let c: JSONValue = ["rightBarButtonItems": ["compose", "edit"]]
    let d: JSONValue = ["rightBarButtonItems": ["compose", "reply"]]
    #expect(
      diff(c, d) == [
        .remove(path: pointer("/rightBarButtonItems/1")), .add(path: pointer("/rightBarButtonItems/1"), value: "reply"),
      ])
  }

  @Test("a change inside a moved element is addressed at its final index")
  func nestedAfterMove() {
    let a: JSONValue = [["id": "a", "children": [["id": "x", "n": 1]]], ["id": "b"]]
    let b: JSONValue = [["id": "b"], ["id": "a", "children": [["id": "x", "n": 2]]]]
    #expect(
      diff(a, b) == [
        .move(from: pointer("/0"), path: pointer("/1")), .replace(path: pointer("/1/children/0/n"), value: 2),
      ])
  }

  @Test("duplicate ids or mixed elements fall back to a positional diff, still correct")
  func fallback() {
    _ = diff(items(["a", "a", "b"]), items(["b", "a", "a"]))
    _ = diff(["a", "a"], ["a"])
    _ = diff(["a", 1, ["id": "x"]], [["id": "x"], "a"])
    _ = diff(items(["a", "b"]), ["a", "b"])
    // An element whose id changes is a different element.
    #expect(diff(items(["a"]), items(["b"])).count == 2)
  }
}

@Suite("PatchBuilder: other arrays")
struct PatchBuilderPositionalTests {
  @Test("an insertion or removal in the middle is one operation")
  func middle() {
    #expect(diff([1, 2, 3, 4], [1, 2, 9, 3, 4]) == [.add(path: pointer("/2"), value: 9)])
    #expect(diff([1, 2, 3, 4], [1, 3, 4]) == [.remove(path: pointer("/1"))])
    #expect(diff([1, 1, 1], [1, 1]) == [.remove(path: pointer("/2"))])
  }

  @Test("the middle is paired positionally, then the tail is trimmed or extended")
  func pairs() {
    #expect(
      diff([0, 1, 2, 3, 9], [0, 5, 6, 9]) == [
        .replace(path: pointer("/1"), value: 5), .replace(path: pointer("/2"), value: 6), .remove(path: pointer("/3")),
      ])
    #expect(
      diff([[1, 2], [3]], [[1, 2, 3], [3], [4]]) == [
        .add(path: pointer("/0/2"), value: 3), .add(path: pointer("/2"), value: [4]),
      ])
  }
}

@Suite("Longest increasing subsequence")
struct LongestIncreasingSubsequenceTests {
  @Test("marks one longest strictly increasing run")
  func marks() {
    var rng = SplitMix64(seed: 11)
    for _ in 0..<200 {
      var values = Array(0..<rng.below(40))
      rng.shuffle(&values)
      let marked = PatchBuilder.longestIncreasingSubsequence(values)
      let chosen = zip(values, marked).filter(\.1).map(\.0)
      #expect(chosen == chosen.sorted())
      #expect(chosen.count == quadraticLISLength(values))
    }
  }
}

/// The textbook O(n²) LIS length, as an independent check of the O(n log n) one.
func quadraticLISLength(_ values: [Int]) -> Int {
  var best = [Int](repeating: 1, count: values.count)
  for i in values.indices {
    for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
  }
  return best.max() ?? 0
}
