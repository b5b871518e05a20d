import Foundation
import NavTestSupport
import Testing

@testable import NavModel

/// The JSON Patch test vectors in `Protocol/vectors/patch/`: generated here, replayed by any
/// implementation (see `Tests/python/check_vectors.py`).
///
/// `NAVD_WRITE_VECTORS=1 swift test --filter PatchVectorTests` rewrites the files. Otherwise the
/// files must be byte-for-byte what this code generates, and every stored patch must turn its
/// `before` into its `after`, as must a fresh diff.
@Suite("Patch vectors", .serialized)
struct PatchVectorTests {
  struct Case {
    var name: String
    var before: JSONValue
    var after: JSONValue
    var patch: [PatchOperation]

    init(_ name: String, _ before: JSONValue, _ after: JSONValue) {
      self.name = name
      self.before = before
      self.after = after
      self.patch = PatchBuilder.diff(before, after)
    }

    /// A case whose patch was made elsewhere (`LayoutPatchCorpusTests`).
    init(name: String, before: JSONValue, after: JSONValue, patch: [PatchOperation]) {
      self.name = name
      self.before = before
      self.after = after
      self.patch = patch
    }
  }

  /// Fixed, not `NAVD_TEST_SEED`: the files are checked in and must not depend on the environment.
  static let seed: UInt64 = 0x7665_6374_6F72_7331

  static var directory: URL {
    var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
      let parent = url.deletingLastPathComponent()
      precondition(parent.path != url.path, "no Package.swift above \(#filePath)")
      url = parent
    }
    return url.appendingPathComponent("Protocol/vectors/patch")
  }

  static func caseSeed(_ group: UInt64, _ index: Int) -> UInt64 {
    var mixer = SplitMix64(seed: seed ^ (group << 32) ^ UInt64(index))
    return mixer.next()
  }

  /// navd-shaped cases: every edit kind in turn, then runs of several edits, 100 to a file.
  static func navdCases() -> [Case] {
    var cases: [Case] = []
    for index in 0..<300 {
      var docs = NavDocuments(seed: caseSeed(1, index))
      var before = docs.document()
      var after = before
      var names: [String] = []
      // An edit can be a no-op (pop with one item); retry with other documents so few cases are empty.
      for _ in 0..<20 where after == before {
        before = docs.document()
        after = before
        names = []
        if index < 240 {
          let kind = NavDocuments.editKinds[index % NavDocuments.editKinds.count]
          after = docs.edit(before, kind: kind)
          names = [kind]
        } else {
          for _ in 0..<docs.rng.int(2...4) {
            let edit = docs.edit(after)
            names.append(edit.name)
            after = edit.after
          }
        }
      }
      cases.append(Case("navd-\(index)-" + names.joined(separator: "+"), before, after))
    }
    return cases
  }

  /// Random documents and random edits of them.
  static func genericCases() -> [Case] {
    (0..<200).map { index in
      var random = RandomJSON(seed: caseSeed(2, index), maxDepth: 4)
      let before = random.document()
      if index % 20 == 19 { return Case("generic-\(index)-unrelated", before, random.document()) }
      return Case("generic-\(index)-edited", before, random.edit(before))
    }
  }

  /// Hand-picked corners: root replacement, escaping, numbers, identity fallbacks.
  static func edgeCases() -> [Case] {
    let ids: (String) -> JSONValue = { text in
      .array(text.map { ["id": .string(String($0)), "title": .string("t\($0)")] })
    }
    let strings: (String) -> JSONValue = { text in .array(text.map { .string(String($0)) }) }
    let list: [(String, JSONValue, JSONValue)] = [
      ("equal-documents", ["a": [1, 2]], ["a": [1, 2]]),
      ("root-scalar-replace", 1, "x"),
      ("root-type-change", [:], []),
      ("root-object-to-null", ["a": 1], nil),
      (
        "escaped-keys", ["a/b": 1, "m~n": 2, "": 3, "~1": 4, "/": ["~": 0]],
        ["a/b": 2, "m~n": 2, "": [3], "~01": 4, "/": ["~": 1]]
      ),
      ("dash-member", ["-": 1, "x": ["-": [1]]], ["-": 2, "x": ["-": [1, 2]]]),
      ("null-to-value", ["a": nil], ["a": 1]),
      ("value-to-null", ["a": 1], ["a": nil]),
      (
        "numbers", ["i": 1, "f": 0.5, "big": 9_007_199_254_740_992, "neg": -3],
        ["i": 1.5, "f": 2, "big": 1e21, "neg": -0.0025]
      ),
      ("unicode-strings", ["s": "plain"], ["s": "ü 😀 \u{01} \"quoted\" \\ line\nbreak"]),
      ("bool-number-distinct", ["a": true, "b": 1], ["a": 1, "b": true]),
      ("id-array-from-empty", ["items": []], ["items": ids("abc")]),
      ("id-array-to-empty", ["items": ids("abc")], ["items": []]),
      ("id-reverse", ["items": ids("abcdef")], ["items": ids("fedcba")]),
      ("id-rotate-left", ["items": ids("abcdef")], ["items": ids("bcdefa")]),
      ("id-rotate-right", ["items": ids("abcdef")], ["items": ids("fabcde")]),
      ("id-insert-remove-reorder", ["items": ids("abcde")], ["items": ids("xdbya")]),
      ("id-changed-is-remove-add", ["items": ids("a")], ["items": ids("b")]),
      ("id-duplicates-fall-back", ["items": ids("aab")], ["items": ids("baa")]),
      (
        "id-one-title", ["items": ids("abc")],
        ["items": [["id": "a", "title": "ta"], ["id": "b", "title": "new"], ["id": "c", "title": "tc"]]]
      ),
      ("string-ids-swap", ["tools": strings("ab")], ["tools": strings("ba")]),
      ("string-ids-move-to-front", ["tools": strings("abcd")], ["tools": strings("dabc")]),
      ("string-ids-shared-button-stays", ["right": strings("ce")], ["right": strings("cr")]),
      ("string-duplicates-fall-back", ["tools": strings("aab")], ["tools": strings("aba")]),
      ("mixed-array", ["m": [1, "a", ["id": "x"], nil]], ["m": [["id": "x"], "a", false]]),
      ("ids-to-strings", ["m": ids("ab")], ["m": strings("ab")]),
      (
        "nested-id-arrays", ["items": [["id": "a", "children": ids("xyz")], ["id": "b"]]],
        ["items": [["id": "b"], ["id": "a", "children": ids("zyx")]]]
      ),
      ("positional-middle", ["n": [1, 2, 3, 4, 5]], ["n": [1, 2, 9, 9, 9, 4, 5]]),
      ("positional-shrink", ["n": [1, 2, 3, 4, 5]], ["n": [1, 5]]),
      ("array-of-arrays", ["n": [[1], [2, 3], []]], ["n": [[1, 2], [3], [], [4]]]),
      (
        "deep-nesting", ["a": ["b": ["c": ["d": ["e": ["f": ["g": ["h": 1]]]]]]]],
        ["a": ["b": ["c": ["d": ["e": ["f": ["g": ["h": 2, "i": []]]]]]]]]
      ),
    ]
    return list.map { Case("edge-\($0.0)", $0.1, $0.2) }
  }

  /// File name → cases: a hundred cases to a file.
  static func files() -> [(String, [Case])] {
    let navd = navdCases()
    let generic = genericCases()
    var files: [(String, [Case])] = [("edge.json", edgeCases())]
    for start in stride(from: 0, to: navd.count, by: 100) {
      files.append(("navd-\(start / 100).json", Array(navd[start..<min(start + 100, navd.count)])))
    }
    for start in stride(from: 0, to: generic.count, by: 100) {
      files.append(("generic-\(start / 100).json", Array(generic[start..<min(start + 100, generic.count)])))
    }
    return files
  }

  /// One case per line so a regenerated file diffs readably; members in reading order.
  static func render(_ cases: [Case]) -> [UInt8] {
    var out = Array("[\n".utf8)
    for (index, item) in cases.enumerated() {
      out += Array(#"{"name":"#.utf8)
      JSONWriter.writeString(item.name, into: &out)
      out += Array(#","before":"#.utf8)
      JSONWriter.write(item.before, into: &out)
      out += Array(#","after":"#.utf8)
      JSONWriter.write(item.after, into: &out)
      out += Array(#","patch":"#.utf8)
      JSONWriter.write(JSONPatch.encode(item.patch), into: &out)
      out += Array((index + 1 < cases.count ? "},\n" : "}\n").utf8)
    }
    out += Array("]\n".utf8)
    return out
  }

  @Test("the stored vectors are what the code generates (NAVD_WRITE_VECTORS=1 rewrites them)")
  func storedVectorsAreCurrent() throws {
    let files = Self.files()
    #expect(files.reduce(0) { $0 + $1.1.count } >= 500)
    let writing = ProcessInfo.processInfo.environment["NAVD_WRITE_VECTORS"] == "1"
    if writing {
      try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
    }
    var total = 0
    for (name, cases) in files {
      let url = Self.directory.appendingPathComponent(name)
      let bytes = Self.render(cases)
      total += bytes.count
      if writing {
        try Data(bytes).write(to: url)
      } else {
        // Compared as a Bool: printing two megabyte-sized arrays would bury the message.
        let current = FileManager.default.contents(atPath: url.path).map { [UInt8]($0) } == bytes
        #expect(
          current,
          "\(url.path) is missing or stale: run NAVD_WRITE_VECTORS=1 swift test --filter PatchVectorTests and review the diff"
        )
      }
    }
    #expect(total < 2_000_000, "vectors total \(total) bytes; keep them under 2 MB")
  }

  @Test("every stored patch, and a fresh diff, turns before into after")
  func storedVectorsApply() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter {
      $0.hasSuffix(".json")
    }
    #expect(!names.isEmpty, "no vectors in \(Self.directory.path)")
    var count = 0
    for name in names.sorted() {
      let data = try #require(FileManager.default.contents(atPath: Self.directory.appendingPathComponent(name).path))
      for vector in try #require(try JSONParser.parse([UInt8](data)).arrayValue) {
        let label = "\(name): \(vector["name"]?.stringValue ?? "?")"
        let before = try #require(vector["before"], "\(label) has no before")
        let after = try #require(vector["after"], "\(label) has no after")
        let patch = try JSONPatch.decode(try #require(vector["patch"], "\(label) has no patch"))
        #expect(try PatchApplier.apply(patch, to: before) == after, "\(label): the stored patch")
        #expect(try PatchApplier.apply(PatchBuilder.diff(before, after), to: before) == after, "\(label): a fresh diff")
        count += 1
      }
    }
    #expect(count >= 500)
  }
}
