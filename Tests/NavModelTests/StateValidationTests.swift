import NavModel
import Testing

/// `SceneState.validated(limits:path:)`: a whole state document held to every rule a mutation
/// holds its scene to, one case per rule, each naming its path, its rule and (for a limit) the
/// limit. The documents are read as JSON, as an import or a stored snapshot is.
@Suite("State validation")
struct StateValidationTests {
  /// One broken document: what is changed in a valid one, and the error expected.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var change: @Sendable (inout JSONValue) -> Void
    var code: NavError.Code
    var field: String
    var rule: String
    var limit: (name: String, max: Int)? = nil

    var testDescription: String { name }
  }

  /// A valid document: a two-item stack with items on both sides, a back button, a toolbar.
  static var valid: JSONValue {
    Fixtures.scene.json
  }

  static func text(_ count: Int) -> JSONValue { .string(String(repeating: "a", count: count)) }

  /// Sets the member at `path` (`navigationBar.items.1.id`: numbers index arrays; the index
  /// just past the end appends).
  static func set(_ path: String, _ value: JSONValue) -> @Sendable (inout JSONValue) -> Void {
    { document in document = replacing(document, at: path.split(separator: ".").map(String.init), with: value) }
  }

  static func replacing(_ node: JSONValue, at path: [String], with value: JSONValue) -> JSONValue {
    guard let first = path.first else { return value }
    let rest = Array(path.dropFirst())
    switch node {
    case .array(var elements):
      let index = Int(first)!
      if index == elements.count { elements.append(.null) }
      elements[index] = replacing(elements[index], at: rest, with: value)
      return .array(elements)
    case .object(var members):
      members[first] = replacing(members[first] ?? .null, at: rest, with: value)
      return .object(members)
    default:
      return replacing(.object([:]), at: path, with: value)
    }
  }

  static func setItem(_ index: Int, _ key: String, _ value: JSONValue) -> @Sendable (inout JSONValue) -> Void {
    set("navigationBar.items.\(index).\(key)", value)
  }

  static func setButton(_ index: Int, _ key: String, _ value: JSONValue) -> @Sendable (inout JSONValue) -> Void {
    set("barButtonItems.\(index).\(key)", value)
  }

  static let cases: [Case] = [
    // The five documents issue 28 found accepted.
    Case(
      name: "R3 two stack items with one id", change: setItem(1, "id", "inbox"), code: .duplicateItem,
      field: "navigationBar.items[1].id", rule: "R3"),
    Case(
      name: "R66 an id with a space", change: setItem(0, "id", "in box"), code: .invalidMutation,
      field: "navigationBar.items[0].id", rule: "R66"),
    Case(
      name: "R67 a title with a control character", change: setItem(1, "title", "Mess\u{7}age"),
      code: .invalidMutation, field: "navigationBar.items[1].title", rule: "R67"),
    Case(
      name: "R66 a 5,000-byte title", change: setItem(0, "title", text(5000)), code: .limitExceeded,
      field: "navigationBar.items[0].title", rule: "R66", limit: ("stringMaxBytes", 256)),
    Case(
      name: "R4 a toolbar naming an undefined item twice: the first is reported",
      change: set("toolbar.items", ["ghost", "ghost"]), code: .itemNotFound, field: "toolbar.items[0]",
      rule: "R4"),
    // One per further rule.
    Case(
      name: "R5 a toolbar naming a defined item twice", change: set("toolbar.items", ["share", "share"]),
      code: .duplicateItem, field: "toolbar.items[1]", rule: "R5"),
    Case(
      name: "R5 one item on both sides of a navigation item", change: setItem(1, "leftBarButtonItems", ["done"]),
      code: .duplicateItem, field: "navigationBar.items[1].rightBarButtonItems", rule: "R5"),
    Case(
      name: "R4 a side naming an undefined item", change: setItem(0, "rightBarButtonItems", ["edit", "ghost"]),
      code: .itemNotFound, field: "navigationBar.items[0].rightBarButtonItems[1]", rule: "R4"),
    Case(
      name: "R4 a back button naming an undefined item", change: setItem(0, "backBarButtonItem", "ghost"),
      code: .itemNotFound, field: "navigationBar.items[0].backBarButtonItem", rule: "R4"),
    Case(
      name: "R3 two bar button items with one id", change: setButton(1, "id", "back"), code: .duplicateItem,
      field: "barButtonItems[1].id", rule: "R3"),
    Case(
      name: "R41 a system item with a title", change: setButton(1, "title", "Done!"), code: .invalidMutation,
      field: "barButtonItems[1].systemItem", rule: "R41"),
    Case(
      name: "R66 a bar button item id of 65 bytes", change: setButton(0, "id", text(65)), code: .limitExceeded,
      field: "barButtonItems[0].id", rule: "R66", limit: ("idMaxLength", 64)),
    Case(
      name: "R66 an empty navigation item id", change: setItem(0, "id", ""), code: .invalidMutation,
      field: "navigationBar.items[0].id", rule: "R66"),
    Case(
      name: "R66 an empty action name", change: setButton(0, "action", ""), code: .invalidMutation,
      field: "barButtonItems[0].action", rule: "R66"),
    Case(
      name: "R66 a stack of 65 items",
      change: set("navigationBar.items", .array((0..<65).map { ["id": .string("n\($0)")] })),
      code: .limitExceeded, field: "navigationBar.items", rule: "R66", limit: ("stackDepth", 64)),
    Case(
      name: "R66 a toolbar of 33 ids",
      change: set("toolbar.items", .array(Array(repeating: "share", count: 33))), code: .limitExceeded,
      field: "toolbar.items", rule: "R66", limit: ("itemsPerArray", 32)),
    Case(
      name: "R66 513 bar button items",
      change: set("barButtonItems", .array((0..<513).map { ["id": .string("b\($0)")] })), code: .limitExceeded,
      field: "barButtonItems", rule: "R66", limit: ("barButtonItemsPerScene", 512)),
    Case(
      name: "R66 17 possible titles", change: setButton(3, "possibleTitles", .array(Array(repeating: "x", count: 17))),
      code: .limitExceeded, field: "barButtonItems[3].possibleTitles", rule: "R66", limit: ("possibleTitles", 16)),
    Case(
      name: "R67 a possible title with DEL", change: setButton(3, "possibleTitles", ["ok", "b\u{7F}d"]),
      code: .invalidMutation, field: "barButtonItems[3].possibleTitles[1]", rule: "R67"),
    Case(
      name: "R66 a width beyond 10,000 points", change: setButton(3, "width", 10_000.5), code: .limitExceeded,
      field: "barButtonItems[3].width", rule: "R66", limit: ("maxWidth", 10_000)),
    Case(
      name: "R66 a negative custom view height",
      change: setItem(0, "titleView", ["name": "v", "width": 10, "height": -1]),
      code: .invalidMutation, field: "navigationBar.items[0].titleView.height", rule: "R66"),
    Case(
      name: "R66 a tag beyond 2^53", change: setButton(3, "tag", 1e16), code: .invalidMutation,
      field: "barButtonItems[3].tag", rule: "R66"),
    Case(
      name: "R66 an appearance default's empty font name",
      change: set("appearanceDefaults.toolbar.titleTextAttributes", ["font": ""]),
      code: .invalidMutation, field: "appearanceDefaults.toolbar.titleTextAttributes.font", rule: "R66"),
    Case(
      name: "R67 a prompt with a newline", change: setItem(1, "prompt", "two\nlines"), code: .invalidMutation,
      field: "navigationBar.items[1].prompt", rule: "R67"),
  ]

  @Test(
    "R3 R4 R5 R41 R66 R67 a document breaking one rule is refused, naming its path, rule and limit", arguments: cases)
  func refused(_ testCase: Case) throws {
    var document = Self.valid
    testCase.change(&document)
    do throws(NavError) {
      _ = try SceneState(json: document, path: "scenes[2].state").validated(path: "scenes[2].state")
      Issue.record("accepted: \(testCase.name)")
    } catch {
      #expect(error.code == testCase.code, "\(error)")
      #expect(error.field == "scenes[2].state.\(testCase.field)", "\(error)")
      #expect(error.message.contains("SEMANTICS \(testCase.rule))"), "\(error)")
      #expect(error.limit == testCase.limit?.name, "\(error)")
      #expect(error.max == testCase.limit?.max, "\(error)")
    }
  }

  @Test("R66 documents with every field set, or exactly at the limits, are accepted unchanged")
  func accepted() throws {
    for state in [Fixtures.scene, Fixtures.richScene, .empty] {
      #expect(try SceneState(json: state.json).validated() == state)
    }
    var document = Self.valid
    Self.setItem(0, "title", Self.text(256))(&document)
    Self.set("barButtonItems.8", ["id": Self.text(64), "possibleTitles": .array(Array(repeating: "x", count: 16))])(
      &document)
    let stack = try #require(document["navigationBar"]?["items"]?.arrayValue)
    Self.set("navigationBar.items", .array(stack.prefix(1) + (1..<64).map { ["id": .string("n\($0)")] }))(&document)
    let state = try SceneState(json: document).validated()
    #expect(state.navigationBar.items.count == 64)
    #expect(state.barButtonItems.count == 9)
  }

  @Test("R66 the limits given are the ones applied")
  func ownLimits() throws {
    var limits = ModelLimits()
    limits.stackDepth = 1
    do throws(NavError) {
      _ = try Fixtures.scene.validated(limits: limits)
      Issue.record("a stack of two passed a depth limit of one")
    } catch {
      #expect(error.code == .limitExceeded && error.limit == "stackDepth" && error.max == 1, "\(error)")
      #expect(error.field == "navigationBar.items", "\(error)")
    }
  }
}
