import Testing

@testable import NavModel

private func json(_ text: String) -> JSONValue {
  do { return try JSONParser.parse(text) } catch { fatalError("bad test JSON \(text): \(error)") }
}

private func pointer(_ text: String) -> JSONPointer {
  do { return try JSONPointer(parsing: text) } catch { fatalError("bad test pointer \(text): \(error)") }
}

/// Decodes `patchText` and applies it to `documentText`.
private func apply(_ patchText: String, to documentText: String) throws(PatchError) -> JSONValue {
  try PatchApplier.apply(try JSONPatch.decode(json(patchText)), to: json(documentText))
}

/// The error applying `patchText` raises, or nil when it succeeds.
private func failure(_ patchText: String, on documentText: String) -> PatchError? {
  do {
    _ = try apply(patchText, to: documentText)
    return nil
  } catch {
    return error
  }
}

@Suite("JSON Pointer (RFC 6901)")
struct JSONPointerTests {
  static let document = json(
    #"{"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\j":5,"k\"l":6," ":7,"m~n":8}"#)

  @Test(
    "RFC 6901 §5: every example pointer finds its value",
    arguments: [
      ("", document), ("/foo", json(#"["bar","baz"]"#)), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1), ("/c%d", 2),
      ("/e^f", 3), ("/g|h", 4), ("/i\\j", 5), ("/k\"l", 6), ("/ ", 7), ("/m~0n", 8),
    ] as [(String, JSONValue)])
  func rfcExamples(text: String, expected: JSONValue) throws {
    let parsed = try JSONPointer(parsing: text)
    #expect(try PatchApplier.value(at: parsed, field: .path, in: Self.document) == expected)
    #expect(parsed.description == text)
  }

  @Test("escaping round-trips tokens with '~' and '/', '~' first")
  func escaping() throws {
    let tokens = ["a/b", "m~n", "~1", "", "~/", "/~", "plain", "0", "ü😀"]
    let original = JSONPointer(tokens: tokens)
    #expect(original.description == "/a~1b/m~0n/~01//~0~1/~1~0/plain/0/ü😀")
    #expect(try JSONPointer(parsing: original.description) == original)
    #expect(try JSONPointer(parsing: "/~01").tokens == ["~1"])
  }

  @Test(
    "malformed pointers are rejected at the offending byte",
    arguments: [("a", 0), ("foo/bar", 0), ("/~", 1), ("/a~2", 2), ("/a/b~", 4), ("/~a", 1)])
  func malformed(text: String, offset: Int) {
    #expect(throws: JSONPointer.ParseError.self) { try JSONPointer(parsing: text) }
    do {
      _ = try JSONPointer(parsing: text)
    } catch {
      #expect(error.offset == offset)
      #expect(error.pointer == text)
    }
  }

  @Test("array index tokens follow RFC 6901: no leading zeros, no sign, '-' is the end")
  func arrayIndices() {
    #expect(JSONPointer.arrayIndex("0") == .index(0))
    #expect(JSONPointer.arrayIndex("10") == .index(10))
    #expect(JSONPointer.arrayIndex("-") == .end)
    for bad in ["", "01", "00", "-1", "+1", "1a", " 1", "1.0", "--"] {
      #expect(JSONPointer.arrayIndex(bad) == .invalid, "\(bad)")
    }
    #expect(JSONPointer.arrayIndex("99999999999999999999999") == .index(Int.max))
  }

  @Test("a pointer is a proper prefix only of pointers strictly below it")
  func properPrefix() {
    #expect(pointer("/a").isProperPrefix(of: pointer("/a/b")))
    #expect(JSONPointer.root.isProperPrefix(of: pointer("/a")))
    #expect(!pointer("/a").isProperPrefix(of: pointer("/a")))
    #expect(!pointer("/a").isProperPrefix(of: pointer("/ab")))
    #expect(!pointer("/a/b").isProperPrefix(of: pointer("/a")))
    #expect(pointer("/a/b").parent == pointer("/a"))
    #expect(JSONPointer.root.parent == nil)
  }
}

@Suite("JSON Patch operations")
struct PatchOperationTests {
  @Test("add sets a member, inserts into an array, appends at '-', replaces the root")
  func add() throws {
    #expect(try apply(#"[{"op":"add","path":"/b","value":2}]"#, to: #"{"a":1}"#) == json(#"{"a":1,"b":2}"#))
    #expect(try apply(#"[{"op":"add","path":"/a","value":[]}]"#, to: #"{"a":1}"#) == json(#"{"a":[]}"#))
    #expect(try apply(#"[{"op":"add","path":"/0","value":0}]"#, to: "[1,2]") == json("[0,1,2]"))
    #expect(try apply(#"[{"op":"add","path":"/2","value":3}]"#, to: "[1,2]") == json("[1,2,3]"))
    #expect(try apply(#"[{"op":"add","path":"/-","value":3}]"#, to: "[1,2]") == json("[1,2,3]"))
    #expect(try apply(#"[{"op":"add","path":"","value":{"x":null}}]"#, to: "[1]") == json(#"{"x":null}"#))
    #expect(try apply(#"[{"op":"add","path":"/","value":1}]"#, to: "{}") == json(#"{"":1}"#))
  }

  @Test("add fails on a missing parent, an index past the end, a bad index, a scalar parent")
  func addErrors() {
    #expect(failure(#"[{"op":"add","path":"/x/y","value":1}]"#, on: "{}")?.code == .pathNotFound)
    #expect(failure(#"[{"op":"add","path":"/3","value":1}]"#, on: "[1,2]")?.code == .indexOutOfRange)
    #expect(failure(#"[{"op":"add","path":"/01","value":1}]"#, on: "[1,2]")?.code == .invalidArrayIndex)
    #expect(failure(#"[{"op":"add","path":"/a/b","value":1}]"#, on: #"{"a":true}"#)?.code == .notAContainer)
    #expect(failure(#"[{"op":"add","path":"/a/0/b","value":1}]"#, on: #"{"a":[]}"#)?.code == .indexOutOfRange)
  }

  @Test("remove deletes a member or an element; the target must exist")
  func remove() throws {
    #expect(try apply(#"[{"op":"remove","path":"/a"}]"#, to: #"{"a":1,"b":2}"#) == json(#"{"b":2}"#))
    #expect(try apply(#"[{"op":"remove","path":"/1"}]"#, to: "[1,2,3]") == json("[1,3]"))
    #expect(failure(#"[{"op":"remove","path":"/c"}]"#, on: #"{"a":1}"#)?.code == .pathNotFound)
    #expect(failure(#"[{"op":"remove","path":"/3"}]"#, on: "[1,2,3]")?.code == .indexOutOfRange)
    #expect(failure(#"[{"op":"remove","path":"/-"}]"#, on: "[1,2,3]")?.code == .indexOutOfRange)
    #expect(failure(#"[{"op":"remove","path":""}]"#, on: "[1]")?.code == .rootNotRemovable)
  }

  @Test("replace needs an existing target, unlike add")
  func replace() throws {
    #expect(try apply(#"[{"op":"replace","path":"/a","value":[1]}]"#, to: #"{"a":1}"#) == json(#"{"a":[1]}"#))
    #expect(try apply(#"[{"op":"replace","path":"/0","value":9}]"#, to: "[1,2]") == json("[9,2]"))
    #expect(try apply(#"[{"op":"replace","path":"","value":7}]"#, to: #"{"a":1}"#) == json("7"))
    #expect(failure(#"[{"op":"replace","path":"/b","value":1}]"#, on: #"{"a":1}"#)?.code == .pathNotFound)
    #expect(failure(#"[{"op":"replace","path":"/2","value":1}]"#, on: "[1,2]")?.code == .indexOutOfRange)
  }

  @Test("move removes then adds; it cannot move a value into its own child")
  func move() throws {
    #expect(
      try apply(#"[{"op":"move","from":"/a","path":"/b/c"}]"#, to: #"{"a":1,"b":{}}"#) == json(#"{"b":{"c":1}}"#))
    #expect(try apply(#"[{"op":"move","from":"/0","path":"/-"}]"#, to: "[1,2,3]") == json("[2,3,1]"))
    #expect(try apply(#"[{"op":"move","from":"/2","path":"/0"}]"#, to: "[1,2,3]") == json("[3,1,2]"))
    #expect(try apply(#"[{"op":"move","from":"/a","path":"/a"}]"#, to: #"{"a":1}"#) == json(#"{"a":1}"#))
    let intoChild = failure(#"[{"op":"move","from":"/a","path":"/a/b"}]"#, on: #"{"a":{}}"#)
    #expect(intoChild?.code == .moveIntoOwnChild)
    let missing = failure(#"[{"op":"move","from":"/x","path":"/y"}]"#, on: "{}")
    #expect(missing?.code == .pathNotFound)
    #expect(missing?.field == .from)
    #expect(failure(#"[{"op":"move","from":"/x","path":"/x"}]"#, on: "{}")?.code == .pathNotFound)
    #expect(failure(#"[{"op":"move","from":"/0","path":"/5"}]"#, on: "[1,2]")?.field == .path)
  }

  @Test("copy adds a copy of the value at from")
  func copy() throws {
    #expect(
      try apply(#"[{"op":"copy","from":"/a","path":"/b"}]"#, to: #"{"a":[1]}"#) == json(#"{"a":[1],"b":[1]}"#))
    #expect(try apply(#"[{"op":"copy","from":"/1","path":"/0"}]"#, to: "[1,2]") == json("[2,1,2]"))
    #expect(failure(#"[{"op":"copy","from":"/z","path":"/b"}]"#, on: "{}")?.field == .from)
  }

  @Test("test compares by JSON equality: key order is irrelevant, 1 equals 1.0")
  func test() throws {
    let doc = #"{"a":{"x":1,"y":[true,null]},"n":1.0}"#
    #expect(try apply(#"[{"op":"test","path":"/a","value":{"y":[true,null],"x":1}}]"#, to: doc) == json(doc))
    #expect(try apply(#"[{"op":"test","path":"/n","value":1}]"#, to: doc) == json(doc))
    let failed = failure(#"[{"op":"test","path":"/n","value":"1"}]"#, on: doc)
    #expect(failed?.code == .testFailed)
    #expect(failed?.operationIndex == 0)
    #expect(failure(#"[{"op":"test","path":"/a/y/0","value":false}]"#, on: doc)?.code == .testFailed)
    #expect(failure(#"[{"op":"test","path":"/q","value":1}]"#, on: doc)?.code == .pathNotFound)
  }

  @Test("a failing patch changes nothing and names the failing operation's index and reason")
  func atomic() throws {
    let original = json(#"{"items":[1,2,3],"title":"Inbox"}"#)
    var document = original
    let patch = try JSONPatch.decode(
      json(
        #"[{"op":"add","path":"/items/-","value":4},{"op":"remove","path":"/title"},"#
          + #"{"op":"remove","path":"/items/9"}]"#))
    do {
      try PatchApplier.apply(patch, to: &document)
      Issue.record("the patch should have failed")
    } catch {
      #expect(error.code == .indexOutOfRange)
      #expect(error.operationIndex == 2)
      #expect(error.field == .path)
      #expect(error.description.contains("operation 2"))
      #expect(error.description.contains("/items/9"))
    }
    #expect(document == original)
  }
}

@Suite("JSON Patch documents")
struct PatchDocumentTests {
  @Test(
    "malformed operations are rejected with the index and the field",
    arguments: [
      (#"{"op":"add"}"#, nil, nil, PatchError.Code.malformedOperation),
      (#"[{"op":"add","path":"/a","value":1},5]"#, 1, nil, .malformedOperation),
      (#"[{"path":"/a"}]"#, 0, .op, .malformedOperation),
      (#"[{"op":1,"path":"/a"}]"#, 0, .op, .malformedOperation),
      (#"[{"op":"get","path":"/a"}]"#, 0, .op, .malformedOperation),
      (#"[{"op":"remove"}]"#, 0, .path, .malformedOperation),
      (#"[{"op":"remove","path":null}]"#, 0, .path, .malformedOperation),
      (#"[{"op":"remove","path":"a"}]"#, 0, .path, .invalidPointer),
      (#"[{"op":"move","path":"/a"}]"#, 0, .from, .malformedOperation),
      (#"[{"op":"copy","from":"/~9","path":"/a"}]"#, 0, .from, .invalidPointer),
      (#"[{"op":"remove","path":"/a"},{"op":"add","path":"/a"}]"#, 1, .value, .malformedOperation),
      (#"[{"op":"test","path":"/a"}]"#, 0, .value, .malformedOperation),
    ] as [(String, Int?, PatchError.Field?, PatchError.Code)])
  func malformed(text: String, index: Int?, field: PatchError.Field?, code: PatchError.Code) {
    do {
      _ = try JSONPatch.decode(json(text))
      Issue.record("decoded \(text)")
    } catch {
      #expect(error.code == code)
      #expect(error.operationIndex == index)
      #expect(error.field == field)
    }
  }

  @Test("null is a value; unknown members are ignored")
  func nullAndExtras() throws {
    let patch = try JSONPatch.decode(json(#"[{"op":"add","path":"/a","value":null,"xyz":1}]"#))
    #expect(patch == [.add(path: pointer("/a"), value: .null)])
  }

  @Test("every operation encodes to RFC 6902 JSON and decodes back")
  func roundTrip() throws {
    let patch: [PatchOperation] = [
      .add(path: pointer("/a~1b/0"), value: ["x": [1, nil]]), .remove(path: pointer("/m~0n")),
      .replace(path: .root, value: "v"), .move(from: pointer("/a"), path: pointer("/b")),
      .copy(from: pointer("/"), path: pointer("/c")), .test(path: pointer("/d"), value: false),
    ]
    let text = JSONWriter.string(JSONPatch.encode(patch))
    #expect(
      text == #"[{"op":"add","path":"/a~1b/0","value":{"x":[1,null]}},{"op":"remove","path":"/m~0n"},"#
        + #"{"op":"replace","path":"","value":"v"},{"from":"/a","op":"move","path":"/b"},"#
        + #"{"from":"/","op":"copy","path":"/c"},{"op":"test","path":"/d","value":false}]"#)
    #expect(try JSONPatch.decode(JSONParser.parse(text)) == patch)
  }
}

@Suite("RFC 6902 appendix A")
struct RFC6902AppendixTests {
  /// (section, document, patch, expected result; nil when the patch must fail).
  static let examples: [(String, String, String, String?)] = [
    ("A.1", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux"}]"#, #"{"baz":"qux","foo":"bar"}"#),
    (
      "A.2", #"{"foo":["bar","baz"]}"#, #"[{"op":"add","path":"/foo/1","value":"qux"}]"#,
      #"{"foo":["bar","qux","baz"]}"#
    ),
    ("A.3", #"{"baz":"qux","foo":"bar"}"#, #"[{"op":"remove","path":"/baz"}]"#, #"{"foo":"bar"}"#),
    ("A.4", #"{"foo":["bar","qux","baz"]}"#, #"[{"op":"remove","path":"/foo/1"}]"#, #"{"foo":["bar","baz"]}"#),
    (
      "A.5", #"{"baz":"qux","foo":"bar"}"#, #"[{"op":"replace","path":"/baz","value":"boo"}]"#,
      #"{"baz":"boo","foo":"bar"}"#
    ),
    (
      "A.6", #"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
      #"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#,
      #"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#
    ),
    (
      "A.7", #"{"foo":["all","grass","cows","eat"]}"#, #"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#,
      #"{"foo":["all","cows","eat","grass"]}"#
    ),
    (
      "A.8", #"{"baz":"qux","foo":["a",2,"c"]}"#,
      #"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#,
      #"{"baz":"qux","foo":["a",2,"c"]}"#
    ),
    ("A.9", #"{"baz":"qux"}"#, #"[{"op":"test","path":"/baz","value":"bar"}]"#, nil),
    (
      "A.10", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#,
      #"{"foo":"bar","child":{"grandchild":{}}}"#
    ),
    (
      "A.11", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux","xyz":123}]"#,
      #"{"foo":"bar","baz":"qux"}"#
    ),
    ("A.12", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz/bat","value":"qux"}]"#, nil),
    ("A.14", #"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":10}]"#, #"{"/":9,"~1":10}"#),
    ("A.15", #"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":"10"}]"#, nil),
    (
      "A.16", #"{"foo":["bar"]}"#, #"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#,
      #"{"foo":["bar",["abc","def"]]}"#
    ),
  ]

  @Test("each example gives the RFC's result", arguments: examples)
  func example(section: String, document: String, patch: String, expected: String?) throws {
    if let expected {
      #expect(try apply(patch, to: document) == json(expected), "\(section)")
    } else {
      #expect(failure(patch, on: document) != nil, "\(section) should fail")
    }
  }

  @Test("A.13: an operation object with a duplicate member is not valid JSON")
  func duplicateMember() {
    #expect(throws: JSONParser.Error.self) {
      try JSONParser.parse(#"[{"op":"add","path":"/baz","value":"qux","op":"remove"}]"#)
    }
  }
}
