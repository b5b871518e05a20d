import NavModel
import Testing

/// A mutation is a batch: all of its ops or none, and a failure says which op and which field.
@Suite("Atomicity")
struct AtomicityTests {
  let before = Fixtures.scene

  /// Valid ops that change a lot, to put in front of a failing one.
  var prefix: [Op] {
    [
      .defineBarButtonItem(Fixtures.button("compose")),
      .push(NavigationItem(id: "draft", title: "Draft", rightBarButtonItems: ["compose"]), animated: true),
      .setToolbarItems(["compose"], animated: false),
      .updateAppearance(.navigationBar, [.barStyle(.black)]),
      .setSceneTint(Color(red: 1, green: 2, blue: 3)),
      .deleteBarButtonItem("share"),
    ]
  }

  struct FailingOp: Sendable, CustomTestStringConvertible {
    var name: String
    var op: Op
    var code: NavError.Code
    /// The field below `ops[k]`.
    var field: String
    var testDescription: String { name }
  }

  static let failingOps: [FailingOp] = [
    FailingOp(
      name: "title too long", op: .push(NavigationItem(id: "x", title: Fixtures.text("é", 129)), animated: false),
      code: .limitExceeded, field: "item.title"),
    FailingOp(
      name: "push again", op: .push(NavigationItem(id: "inbox"), animated: true), code: .itemAlreadyOnStack,
      field: "item.id"),
    FailingOp(
      name: "pop someone else's screen", op: .pop(expectTop: "inbox", animated: true), code: .conflict,
      field: "expectTop"),
    FailingOp(name: "popTo unknown", op: .popTo("nowhere", animated: false), code: .itemNotFound, field: "item"),
    FailingOp(
      name: "setStack duplicate", op: .setStack([NavigationItem(id: "a"), NavigationItem(id: "a")], animated: false),
      code: .duplicateItem, field: "items[1].id"),
    FailingOp(
      name: "update title with a control character",
      op: .updateNavigationItem("inbox", [.title("a\u{7}")], animated: false),
      code: .invalidMutation, field: "set.title"),
    FailingOp(
      name: "set unknown items",
      op: .setBarButtonItems(navigationItem: "inbox", side: .left, items: ["ghost"], animated: false),
      code: .itemNotFound, field: "items[0]"),
    FailingOp(
      name: "insert before a missing anchor",
      op: .insertBarButtonItem(navigationItem: "inbox", side: .right, item: "reply", before: "ghost"),
      code: .itemNotFound,
      field: "before"),
    FailingOp(
      name: "define twice", op: .defineBarButtonItem(Fixtures.button("done")), code: .duplicateItem,
      field: "barButtonItem.id"),
    FailingOp(
      name: "update negative width", op: .updateBarButtonItem("done", [.width(-1)]), code: .invalidMutation,
      field: "set.width"),
    FailingOp(name: "delete unknown", op: .deleteBarButtonItem("ghost"), code: .itemNotFound, field: "barButtonItem"),
    FailingOp(
      name: "toolbar duplicate", op: .setToolbarItems(["flex", "flex"], animated: false), code: .duplicateItem,
      field: "items[1]"),
    FailingOp(
      name: "remove from toolbar what is not there", op: .removeToolbarItem("edit"), code: .itemNotFound,
      field: "barButtonItem"),
    FailingOp(
      name: "appearance size too large",
      op: .updateAppearance(.toolbar, [.titleTextAttributes(TitleTextAttributes(size: 1e6))]),
      code: .limitExceeded, field: "set.titleTextAttributes.size"),
  ]

  @Test("R6 a batch whose k-th op fails leaves the state unchanged and names op k and its field", arguments: failingOps)
  func kthOpFails(_ failing: FailingOp) throws {
    for k in [0, 1, 3, prefix.count] {
      let ops = Array(prefix.prefix(k)) + [failing.op] + [.setBarHidden(.navigationBar, hidden: true, animated: false)]
      // The ops before k succeed on their own (so the batch truly fails at k)…
      if k > 0 { _ = try before.applying(Array(prefix.prefix(k))) }
      // …and the whole batch fails at k, with nothing to show for ops 0..<k.
      let copy = before
      let error = expectFailure(before, ops, failing.code, field: "ops[\(k)].\(failing.field)", opIndex: k)
      #expect(error?.parameters["opIndex"] == .number(Double(k)))
      #expect(before == copy)
    }
  }

  @Test("R6 ops apply in order: a later op sees what an earlier op of the same batch did")
  func inOrder() throws {
    let result = try SceneState.empty.applying([
      .defineBarButtonItem(Fixtures.button("save")),
      .push(NavigationItem(id: "root", rightBarButtonItems: ["save"]), animated: false),
      .push(NavigationItem(id: "detail"), animated: true),
      .setBarButtonItem(navigationItem: "detail", side: .left, item: "save", animated: false),
      .updateBarButtonItem("save", [.title("Store")]),
      .pop(expectTop: "detail", animated: true),
      .push(NavigationItem(id: "other"), animated: false),
    ])
    let expected = SceneState(
      navigationBar: NavigationBarState(items: [
        NavigationItem(id: "root", rightBarButtonItems: ["save"]), NavigationItem(id: "other"),
      ]),
      barButtonItems: BarButtonItemRegistry([BarButtonItem(id: "save", title: "Store")]))
    #expect(result.state == expected)
    #expect(
      result.events == [
        .push(item: "root", animated: false), .push(item: "detail", animated: true),
        .pop(items: ["detail"], animated: true),
        .push(item: "other", animated: false),
      ])
    #expect(result.animated)
  }

  @Test("R6 an op may not use what a later op of the batch defines")
  func notYetDefined() {
    expectFailure(
      .empty,
      [
        .push(NavigationItem(id: "root", leftBarButtonItems: ["x"]), animated: false),
        .defineBarButtonItem(Fixtures.button("x")),
      ],
      .itemNotFound, field: "ops[0].item.leftBarButtonItems[0]", opIndex: 0)
  }

  @Test("R6 the failing op's own partial effects are discarded too")
  func partialOp() {
    // The first field of the update is fine, the second is not: neither is applied.
    expectFailure(
      before, [.updateNavigationItem("inbox", [.title("New"), .backBarButtonItem("ghost")], animated: false)],
      .itemNotFound,
      field: "ops[0].set.backBarButtonItem")
    expectFailure(
      before, [.updateBarButtonItem("share", [.title("New"), .width(20_000)])], .limitExceeded,
      field: "ops[0].set.width")
  }

  @Test("R14 animated never changes the state; the mutation is animated when any op says so")
  func animatedOnlyMarks() throws {
    let animatable: [(Bool) -> Op] = [
      { .push(NavigationItem(id: "n"), animated: $0) },
      { .pop(expectTop: nil, animated: $0) },
      { .popTo("inbox", animated: $0) },
      { .setStack([NavigationItem(id: "n")], animated: $0) },
      { .updateNavigationItem("inbox", [.hidesBackButton(true)], animated: $0) },
      { .setBarButtonItems(navigationItem: "inbox", side: .left, items: ["reply"], animated: $0) },
      { .setBarButtonItem(navigationItem: "inbox", side: .right, item: "reply", animated: $0) },
      { .setToolbarItems(["done"], animated: $0) },
      { .setBarHidden(.toolbar, hidden: true, animated: $0) },
    ]
    for makeOp in animatable {
      let still = try before.applying(makeOp(false))
      let moving = try before.applying(makeOp(true))
      #expect(still.state == moving.state)
      #expect(!still.animated)
      #expect(moving.animated)
      #expect(still.events.map(\.json).map { $0["animated"] ?? .bool(false) }.allSatisfy { $0 == .bool(false) })
      #expect(moving.events.map(\.json).map { $0["animated"] ?? .bool(true) }.allSatisfy { $0 == .bool(true) })
      // One animated op among still ones animates the whole update.
      let mixed = try before.applying([.setSceneTint(nil), makeOp(true), .setDefaultItemTint(nil)])
      #expect(mixed.animated)
      #expect(mixed.state == moving.state)
    }
    #expect(try !before.applying([.setSceneTint(nil), .deleteBarButtonItem("share")]).animated)
  }
}
