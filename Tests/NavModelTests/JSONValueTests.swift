import Testing

@testable import NavModel

/// `JSONValue.replaceMember(at:with:)`, the in-place edit `LayoutDocument`
/// uses to put a re-encoded part into the document.
@Suite("JSONValue: replacing a nested member")
struct JSONValueTests {
  static let document: JSONValue = [
    "navigationBar": ["centre": ["title": "Old", "kind": "title"], "hidden": false], "toolbar": ["hidden": true],
  ]

  @Test("the member at the path is replaced and nothing else changes, copies included (value semantics)")
  func replacesNestedMember() {
    var document = Self.document
    let copy = document
    document.replaceMember(at: ["navigationBar", "centre"], with: ["title": "New", "kind": "title"])
    #expect(
      document == [
        "navigationBar": ["centre": ["title": "New", "kind": "title"], "hidden": false], "toolbar": ["hidden": true],
      ])
    #expect(copy == Self.document)
  }

  @Test("a missing last member is added; a missing or non-object member on the way changes nothing")
  func missingMembers() {
    var added = Self.document
    added.replaceMember(at: ["toolbar", "items"], with: [])
    #expect(added["toolbar"] == ["hidden": true, "items": []])
    for path: ArraySlice<String> in [["nowhere", "title"], ["toolbar", "hidden", "x"], []] {
      var document = Self.document
      document.replaceMember(at: path, with: "X")
      #expect(document == Self.document, "path \(Array(path))")
    }
  }
}
