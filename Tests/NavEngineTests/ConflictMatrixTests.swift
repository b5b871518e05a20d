import NavEngine
import NavModel
import Testing

/// Protocol/CONFLICTS.md §6, one row per cell, under both policies.
@Suite("CONFLICTS.md matrix")
struct ConflictMatrixTests {
  enum Expected: Sendable, CustomStringConvertible {
    /// Commits; `overwritten` lists the keys reported (empty under failOnConflict's success).
    case applies(overwritten: [String])
    case fails(NavError.Code)

    var description: String {
      switch self {
      case .applies(let keys): "applies \(keys)"
      case .fails(let code): "fails \(code)"
      }
    }
  }

  struct Cell: Sendable, CustomTestStringConvertible {
    var name: String
    /// Mutations another client commits after the base version, one mutation each.
    var other: [[Op]]
    var incoming: [Op]
    var lastWriterWins: Expected
    var failOnConflict: Expected
    var otherClient = "other"

    var testDescription: String { name }
  }

  static let x = "x"

  /// Buttons A–D; stack root → x (left [A]); toolbar [C].
  static let setup: [Op] = [
    Sample.button("A"), Sample.button("B"), Sample.button("C"), Sample.button("D"),
    .push(NavigationItem(id: "root", title: "Root"), animated: false),
    .push(NavigationItem(id: x, title: "X", leftBarButtonItems: ["A"]), animated: false),
    .setToolbarItems(["C"], animated: false),
  ]

  static func field(_ id: String, _ fields: [NavigationItemField]) -> Op {
    .updateNavigationItem(id, fields, animated: false)
  }

  static func item(_ id: String, _ fields: [BarButtonItemField]) -> Op { .updateBarButtonItem(id, fields) }

  static let conflict = Expected.fails(.conflict)

  static let cells: [Cell] = [
    Cell(
      name: "C1 same title", other: [[field(x, [.title("Mail")])]], incoming: [field(x, [.title("Post")])],
      lastWriterWins: .applies(overwritten: ["navigationItem/x/title"]), failOnConflict: conflict),
    Cell(
      name: "C2 title vs prompt", other: [[field(x, [.title("Mail")])]], incoming: [field(x, [.prompt("P")])],
      lastWriterWins: .applies(overwritten: []), failOnConflict: .applies(overwritten: [])),
    Cell(
      name: "C3 different items", other: [[field(x, [.title("Mail")])]], incoming: [field("root", [.title("R")])],
      lastWriterWins: .applies(overwritten: []), failOnConflict: .applies(overwritten: [])),
    Cell(
      name: "C4 same item property", other: [[item("A", [.enabled(false)])]], incoming: [item("A", [.enabled(true)])],
      lastWriterWins: .applies(overwritten: ["barButtonItem/A/enabled"]), failOnConflict: conflict),
    Cell(
      name: "C5 different item properties", other: [[item("A", [.title("New")])]],
      incoming: [item("A", [.enabled(false)])],
      lastWriterWins: .applies(overwritten: []), failOnConflict: .applies(overwritten: [])),
    Cell(
      name: "C6 insert then whole-array set",
      other: [[.insertBarButtonItem(navigationItem: x, side: .left, item: "B", before: nil)]],
      incoming: [.setBarButtonItems(navigationItem: x, side: .left, items: ["C"], animated: false)],
      lastWriterWins: .applies(overwritten: ["navigationItem/x/leftBarButtonItems"]), failOnConflict: conflict),
    Cell(
      name: "C7 whole-array set then insert",
      other: [[.setBarButtonItems(navigationItem: x, side: .left, items: ["B"], animated: false)]],
      incoming: [.insertBarButtonItem(navigationItem: x, side: .left, item: "C", before: nil)],
      lastWriterWins: .applies(overwritten: []), failOnConflict: .applies(overwritten: [])),
    Cell(
      name: "C8 first element twice",
      other: [[.setBarButtonItem(navigationItem: x, side: .left, item: "B", animated: false)]],
      incoming: [.setBarButtonItem(navigationItem: x, side: .left, item: "C", animated: false)],
      lastWriterWins: .applies(overwritten: ["navigationItem/x/leftBarButtonItem"]), failOnConflict: conflict),
    Cell(
      name: "C9 insert before a removed anchor",
      other: [[.removeBarButtonItem(navigationItem: x, side: .left, item: "A")]],
      incoming: [.insertBarButtonItem(navigationItem: x, side: .left, item: "C", before: "A")],
      lastWriterWins: .fails(.itemNotFound), failOnConflict: .fails(.itemNotFound)),
    Cell(
      name: "C10 move a removed item", other: [[.removeBarButtonItem(navigationItem: x, side: .left, item: "A")]],
      incoming: [.moveBarButtonItem(navigationItem: x, side: .left, item: "A", before: nil)],
      lastWriterWins: .fails(.itemNotFound), failOnConflict: .fails(.itemNotFound)),
    Cell(
      name: "C11 pop after another client pushed", other: [[.push(Sample.item("p"), animated: false)]],
      incoming: [.pop(expectTop: nil, animated: false)], lastWriterWins: conflict, failOnConflict: conflict),
    Cell(
      name: "C12 pop expecting the old top", other: [[.push(Sample.item("p"), animated: false)]],
      incoming: [.pop(expectTop: x, animated: false)], lastWriterWins: conflict, failOnConflict: conflict),
    Cell(
      name: "C13 pop after a push and pop by another client",
      other: [[.push(Sample.item("p"), animated: false)], [.pop(expectTop: "p", animated: false)]],
      incoming: [.pop(expectTop: nil, animated: false)],
      lastWriterWins: .applies(overwritten: []), failOnConflict: .applies(overwritten: [])),
    Cell(
      name: "C14 popTo across another client's push", other: [[.push(Sample.item("p"), animated: false)]],
      incoming: [.popTo("root", animated: false)], lastWriterWins: conflict, failOnConflict: conflict),
    Cell(
      name: "C15 two pushes", other: [[.push(Sample.item("p"), animated: false)]],
      incoming: [.push(Sample.item("q"), animated: false)],
      lastWriterWins: .applies(overwritten: []), failOnConflict: .applies(overwritten: [])),
    Cell(
      name: "C16 pushing the id another client pushed", other: [[.push(Sample.item("p"), animated: false)]],
      incoming: [.push(Sample.item("p"), animated: false)],
      lastWriterWins: .fails(.itemAlreadyOnStack), failOnConflict: .fails(.itemAlreadyOnStack)),
    Cell(
      name: "C17 setStack after a push", other: [[.push(Sample.item("p"), animated: false)]],
      incoming: [.setStack([Sample.item("root")], animated: false)],
      lastWriterWins: .applies(overwritten: ["navigationBar/items"]), failOnConflict: conflict),
    Cell(
      name: "C18 update a popped item", other: [[.pop(expectTop: x, animated: false)]],
      incoming: [field(x, [.title("T")])],
      lastWriterWins: .fails(.itemNotFound), failOnConflict: .fails(.itemNotFound)),
    Cell(
      name: "C19 define the same id", other: [[Sample.button("E")]], incoming: [Sample.button("E")],
      lastWriterWins: .fails(.duplicateItem), failOnConflict: .fails(.duplicateItem)),
    Cell(
      name: "C20 update a deleted item", other: [[.deleteBarButtonItem("A")]], incoming: [item("A", [.title("T")])],
      lastWriterWins: .fails(.itemNotFound), failOnConflict: .fails(.itemNotFound)),
    Cell(
      name: "C21 toolbar insert then set", other: [[.insertToolbarItem("D", before: nil)]],
      incoming: [.setToolbarItems(["A"], animated: false)],
      lastWriterWins: .applies(overwritten: ["toolbar/items"]), failOnConflict: conflict),
    Cell(
      name: "C22 toolbar set then remove", other: [[.setToolbarItems(["C", "D"], animated: false)]],
      incoming: [.removeToolbarItem("C")],
      lastWriterWins: .applies(overwritten: []), failOnConflict: .applies(overwritten: [])),
    Cell(
      name: "C23 hide the toolbar twice", other: [[.setBarHidden(.toolbar, hidden: true, animated: false)]],
      incoming: [.setBarHidden(.toolbar, hidden: false, animated: false)],
      lastWriterWins: .applies(overwritten: ["toolbar/hidden"]), failOnConflict: conflict),
    Cell(
      name: "C24 tint vs bar tint",
      other: [[.updateAppearance(.navigationBar, [.tintColor(Color(hex: "#FF0000"))])]],
      incoming: [.updateAppearance(.navigationBar, [.barTintColor(Color(hex: "#00FF00"))])],
      lastWriterWins: .applies(overwritten: []), failOnConflict: .applies(overwritten: [])),
    Cell(
      name: "C25 same appearance field",
      other: [[.updateAppearance(.navigationBar, [.tintColor(Color(hex: "#FF0000"))])]],
      incoming: [.updateAppearance(.navigationBar, [.tintColor(Color(hex: "#00FF00"))])],
      lastWriterWins: .applies(overwritten: ["appearance/navigationBar/tintColor"]), failOnConflict: conflict),
    Cell(
      name: "C26 scene tint twice", other: [[.setSceneTint(Color(hex: "#FF0000"))]],
      incoming: [.setSceneTint(nil)],
      lastWriterWins: .applies(overwritten: ["scene/tintColor"]), failOnConflict: conflict),
    Cell(
      name: "C27 own writes never conflict", other: [[field(x, [.title("Mine")])]],
      incoming: [field(x, [.title("Again")])],
      lastWriterWins: .applies(overwritten: []), failOnConflict: .applies(overwritten: []), otherClient: "me"),
    Cell(
      name: "C29 write a field of an item pushed after the base", other: [[.push(Sample.item("p"), animated: false)]],
      incoming: [field("p", [.title("Mine")])],
      lastWriterWins: .applies(overwritten: ["navigationItem/p/title"]), failOnConflict: conflict),
    Cell(
      name: "C30 write a property of an item defined after the base", other: [[Sample.button("E")]],
      incoming: [item("E", [.enabled(false)])],
      lastWriterWins: .applies(overwritten: ["barButtonItem/E/enabled"]), failOnConflict: conflict),
    Cell(
      name: "C31 write a field of an item setStack created after the base",
      other: [[.setStack([Sample.item("root"), Sample.item("y")], animated: false)]],
      incoming: [field("y", [.prompt("P")])],
      lastWriterWins: .applies(overwritten: ["navigationItem/y/prompt"]), failOnConflict: conflict),
  ]

  @Test("Each cell under lastWriterWins and failOnConflict", arguments: cells, ConflictPolicy.allCases)
  func cell(_ cell: Cell, policy: ConflictPolicy) async throws {
    let scene = makeScene()
    let base = try await scene.commit(Sample.request(Self.setup, client: "setup")).version
    for ops in cell.other { try await scene.commit(Sample.request(ops, client: cell.otherClient)) }
    let before = await scene.snapshot()
    let expected = policy == .lastWriterWins ? cell.lastWriterWins : cell.failOnConflict
    let result = await scene.mutate(Sample.request(cell.incoming, base: base, client: "me", policy: policy))
    switch (expected, result) {
    case (.applies(let keys), .success(let outcome)):
      #expect(outcome.overwritten.map(\.field.description) == keys)
      #expect(outcome.version == before.version + 1)
      let expectedState = try before.state.applying(cell.incoming).state
      #expect((await scene.snapshot()).state == expectedState)
    case (.fails(let code), .failure(let error)):
      #expect(error.code == code, "\(error)")
      let after = await scene.snapshot()
      #expect(after.state == before.state)
      #expect(after.version == before.version)
    default:
      Issue.record("\(cell.name) under \(policy): expected \(expected), got \(result)")
    }
  }

  @Test("C1 lastWriterWins reports the replaced value and the version that wrote it")
  func overwriteReport() async throws {
    let scene = makeScene()
    let base = try await scene.commit(Sample.request(Self.setup, client: "setup")).version
    let written = try await scene.commit(Sample.request([Self.field(Self.x, [.title("Mail")])], client: "other"))
      .version
    let outcome = try await scene.commit(
      Sample.request([Self.field(Self.x, [.title("Post")])], base: base, client: "me"))
    #expect(outcome.overwritten.map(\.field.description) == ["navigationItem/x/title"])
    #expect(outcome.overwritten.map(\.previousValue) == ["Mail"])
    #expect(outcome.overwritten.map(\.writtenAt) == [written])
  }

  @Test("C1 failOnConflict carries the current version and values, and applies nothing")
  func conflictDetails() async throws {
    let scene = makeScene()
    let base = try await scene.commit(Sample.request(Self.setup, client: "setup")).version
    let written = try await scene.commit(Sample.request([Self.field(Self.x, [.title("Mail")])], client: "other"))
      .version
    let error = await scene.expectFailure(
      Sample.request([Self.field(Self.x, [.title("Post")])], base: base, client: "me", policy: .failOnConflict),
      .conflict)
    #expect(error?.parameters["currentVersion"] == .number(Double(written)))
    #expect(
      error?.parameters["conflicts"]
        == [["field": "navigationItem/x/title", "currentValue": "Mail", "version": .number(Double(written))]])
    #expect((await scene.snapshot()).state.navigationBar.topItem?.title == "Mail")
  }

  @Test("C28 a baseVersion older than the log: lastWriterWins applies and says so")
  func expiredBaseLastWriterWins() async throws {
    let scene = makeScene { $0.opLogCapacity = 2 }
    try await scene.commit(Sample.request(Self.setup, client: "setup"))
    for i in 0..<3 { try await scene.commit(Sample.request([Self.field(Self.x, [.title("T\(i)")])], client: "other")) }
    let outcome = try await scene.commit(Sample.request([Self.field(Self.x, [.title("Mine")])], base: 1, client: "me"))
    #expect(outcome.baseVersionExpired)
    #expect(outcome.overwritten.isEmpty)
  }

  @Test("C28 a baseVersion older than the log: failOnConflict is a Conflict on baseVersion")
  func expiredBaseFailOnConflict() async throws {
    let scene = makeScene { $0.opLogCapacity = 2 }
    try await scene.commit(Sample.request(Self.setup, client: "setup"))
    for i in 0..<3 { try await scene.commit(Sample.request([Self.field(Self.x, [.title("T\(i)")])], client: "other")) }
    let error = await scene.expectFailure(
      Sample.request([Self.field(Self.x, [.title("Mine")])], base: 1, client: "me", policy: .failOnConflict), .conflict)
    #expect(error?.field == "baseVersion")
  }

  @Test("S7 a blind mutation never reports overwrites")
  func blindWrite() async throws {
    let scene = makeScene()
    try await scene.commit(Sample.request(Self.setup, client: "setup"))
    try await scene.commit(Sample.request([Self.field(Self.x, [.title("Mail")])], client: "other"))
    let outcome = try await scene.commit(Sample.request([Self.field(Self.x, [.title("Post")])], client: "me"))
    #expect(outcome.overwritten.isEmpty)
    #expect(!outcome.baseVersionExpired)
  }
}
