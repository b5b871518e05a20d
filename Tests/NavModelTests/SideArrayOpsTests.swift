import NavModel
import Testing

/// The left and right arrays of a navigation item: set, first element, insert, remove, move.
@Suite("Side array ops")
struct SideArrayOpsTests {
  let before = Fixtures.scene
  // MARK: - setBarButtonItems

  @Test("R17 setBarButtonItems replaces one side's array")
  func setArray() throws {
    for side in BarSide.allCases {
      for animated in [false, true] {
        let result = try before.applying(
          .setBarButtonItems(navigationItem: "inbox", side: side, items: ["reply", "add"], animated: animated))
        var expected = before
        expected.navigationBar.items[0][side] = ["reply", "add"]
        #expect(result.state == expected)
        #expect(result.events == [])
        #expect(result.animated == animated)
      }
    }
    let cleared = try before.applying(
      .setBarButtonItems(navigationItem: "message", side: .right, items: [], animated: false))
    #expect(cleared.state.navigationBar.items[1].rightBarButtonItems == [])
  }

  @Test("R17 setBarButtonItems needs an item on the stack and defined ids, each once")
  func setArrayErrors() {
    expectFailure(
      before, [.setBarButtonItems(navigationItem: "drafts", side: .left, items: [], animated: false)], .itemNotFound,
      field: "ops[0].item")
    expectFailure(
      before, [.setBarButtonItems(navigationItem: "inbox", side: .left, items: ["reply", "ghost"], animated: false)],
      .itemNotFound, field: "ops[0].items[1]")
    expectFailure(
      before,
      [.setBarButtonItems(navigationItem: "inbox", side: .right, items: ["reply", "add", "reply"], animated: false)],
      .duplicateItem, field: "ops[0].items[2]")
  }

  @Test("R5 R17 R18 an item on one side of a navigation item cannot be put on its other side")
  func otherSide() {
    // "message" shows share on the left, done and add on the right.
    let cases: [(Op, String)] = [
      (
        .setBarButtonItems(navigationItem: "message", side: .left, items: ["reply", "done"], animated: false),
        "ops[0].items"
      ),
      (.setBarButtonItems(navigationItem: "message", side: .right, items: ["share"], animated: false), "ops[0].items"),
      (.setBarButtonItem(navigationItem: "message", side: .left, item: "add", animated: false), "ops[0].barButtonItem"),
      (
        .setBarButtonItem(navigationItem: "message", side: .right, item: "share", animated: false),
        "ops[0].barButtonItem"
      ),
      (.insertBarButtonItem(navigationItem: "message", side: .left, item: "done", before: nil), "ops[0].barButtonItem"),
      (
        .insertBarButtonItem(navigationItem: "message", side: .right, item: "share", before: "done"),
        "ops[0].barButtonItem"
      ),
    ]
    for (op, field) in cases { expectFailure(before, [op], .duplicateItem, field: field) }
  }

  @Test("R5 the same item may be on one side of two navigation items")
  func sameSideOfTwoItems() throws {
    let result = try before.applying(
      .setBarButtonItems(navigationItem: "inbox", side: .left, items: ["share"], animated: false))
    #expect(result.state.navigationBar.items.map(\.leftBarButtonItems) == [["share"], ["share"]])
  }

  // MARK: - setBarButtonItem (first-element semantics)

  struct FirstElementCase: Sendable, CustomTestStringConvertible {
    var initial: [String]
    var item: String?
    var expected: [String]
    var testDescription: String { "\(initial) ← \(item ?? "nil") = \(expected)" }
  }

  static let firstElementCases: [FirstElementCase] = [
    // Replace the first element, keep the rest.
    FirstElementCase(initial: ["done", "add"], item: "reply", expected: ["reply", "add"]),
    FirstElementCase(initial: ["done"], item: "reply", expected: ["reply"]),
    // nil removes the first element only.
    FirstElementCase(initial: ["done", "add", "edit"], item: nil, expected: ["add", "edit"]),
    FirstElementCase(initial: ["done"], item: nil, expected: []),
    // nil on an empty array is a no-op.
    FirstElementCase(initial: [], item: nil, expected: []),
    // An item already in the array moves to the front; nothing is lost.
    FirstElementCase(initial: ["done", "add", "edit"], item: "edit", expected: ["edit", "done", "add"]),
    FirstElementCase(initial: ["done", "add", "edit"], item: "add", expected: ["add", "done", "edit"]),
    FirstElementCase(initial: ["done", "add"], item: "done", expected: ["done", "add"]),
    // On an empty array it becomes the only element.
    FirstElementCase(initial: [], item: "reply", expected: ["reply"]),
  ]

  @Test("R18 setBarButtonItem is the first element of the array", arguments: firstElementCases, BarSide.allCases)
  func firstElement(_ testCase: FirstElementCase, side: BarSide) throws {
    var state = before
    state.navigationBar.items[1][side] = testCase.initial
    state.navigationBar.items[1][side.other] = []
    let result = try state.applying(
      .setBarButtonItem(navigationItem: "message", side: side, item: testCase.item, animated: true))
    var expected = state
    expected.navigationBar.items[1][side] = testCase.expected
    #expect(result.state == expected)
    #expect(result.events == [])
    #expect(result.animated)
  }

  @Test("R18 setBarButtonItem needs an item on the stack and a defined bar button item")
  func firstElementErrors() {
    expectFailure(
      before, [.setBarButtonItem(navigationItem: "drafts", side: .left, item: "done", animated: false)], .itemNotFound,
      field: "ops[0].item")
    let error = expectFailure(
      before, [.setBarButtonItem(navigationItem: "inbox", side: .right, item: "ghost", animated: false)], .itemNotFound,
      field: "ops[0].barButtonItem")
    #expect(error?.value == "ghost")
  }

  // MARK: - insert / remove / move in a side array

  @Test("R17 insertBarButtonItem puts the item before its anchor, or at the end")
  func insert() throws {
    let atEnd = try before.applying(
      .insertBarButtonItem(navigationItem: "message", side: .right, item: "reply", before: nil))
    var expected = before
    expected.navigationBar.items[1].rightBarButtonItems = ["done", "add", "reply"]
    #expect(atEnd.state == expected)
    #expect(atEnd.events == [])

    let beforeFirst = try before.applying(
      .insertBarButtonItem(navigationItem: "message", side: .right, item: "reply", before: "done"))
    expected.navigationBar.items[1].rightBarButtonItems = ["reply", "done", "add"]
    #expect(beforeFirst.state == expected)

    let intoEmpty = try before.applying(
      .insertBarButtonItem(navigationItem: "inbox", side: .left, item: "reply", before: nil))
    expected = before
    expected.navigationBar.items[0].leftBarButtonItems = ["reply"]
    #expect(intoEmpty.state == expected)
  }

  @Test("R17 insertBarButtonItem errors: unknown item, item already in the array, anchor not in the array")
  func insertErrors() {
    expectFailure(
      before, [.insertBarButtonItem(navigationItem: "drafts", side: .left, item: "reply", before: nil)], .itemNotFound,
      field: "ops[0].item")
    expectFailure(
      before, [.insertBarButtonItem(navigationItem: "message", side: .left, item: "ghost", before: nil)], .itemNotFound,
      field: "ops[0].barButtonItem")
    expectFailure(
      before, [.insertBarButtonItem(navigationItem: "message", side: .right, item: "add", before: "done")],
      .duplicateItem,
      field: "ops[0].barButtonItem")
    let error = expectFailure(
      before, [.insertBarButtonItem(navigationItem: "message", side: .right, item: "reply", before: "share")],
      .itemNotFound, field: "ops[0].before")
    #expect(error?.value == "share")
  }

  @Test("R17 removeBarButtonItem takes the item out of one array only")
  func remove() throws {
    let result = try before.applying(.removeBarButtonItem(navigationItem: "message", side: .left, item: "share"))
    var expected = before
    expected.navigationBar.items[1].leftBarButtonItems = []
    #expect(result.state == expected)
    #expect(result.state.toolbar.items.contains("share"))
    #expect(result.state.barButtonItems.contains("share"))
    #expect(result.events == [])
  }

  @Test("R17 removeBarButtonItem of an item not in that array is ItemNotFound")
  func removeErrors() {
    expectFailure(
      before, [.removeBarButtonItem(navigationItem: "message", side: .right, item: "share")], .itemNotFound,
      field: "ops[0].barButtonItem")
    expectFailure(
      before, [.removeBarButtonItem(navigationItem: "drafts", side: .right, item: "done")], .itemNotFound,
      field: "ops[0].item")
  }

  struct MoveCase: Sendable, CustomTestStringConvertible {
    var item: String
    var before: String?
    var expected: [String]
    var testDescription: String { "move \(item) before \(before ?? "end") = \(expected)" }
  }

  static let moveCases: [MoveCase] = [
    MoveCase(item: "b0", before: nil, expected: ["b1", "b2", "b3", "b0"]),
    MoveCase(item: "b3", before: nil, expected: ["b0", "b1", "b2", "b3"]),
    MoveCase(item: "b3", before: "b0", expected: ["b3", "b0", "b1", "b2"]),
    MoveCase(item: "b1", before: "b3", expected: ["b0", "b2", "b1", "b3"]),
    MoveCase(item: "b2", before: "b1", expected: ["b0", "b2", "b1", "b3"]),
    MoveCase(item: "b0", before: "b1", expected: ["b0", "b1", "b2", "b3"]),
    // Moving an item before itself changes nothing.
    MoveCase(item: "b2", before: "b2", expected: ["b0", "b1", "b2", "b3"]),
  ]

  @Test("R17 moveBarButtonItem moves the item to just before its anchor, or to the end", arguments: moveCases)
  func move(_ testCase: MoveCase) throws {
    var state = Fixtures.scene(buttonCount: 4)
    state.navigationBar.items[0].leftBarButtonItems = ["b0", "b1", "b2", "b3"]
    let result = try state.applying(
      .moveBarButtonItem(navigationItem: "root", side: .left, item: testCase.item, before: testCase.before))
    var expected = state
    expected.navigationBar.items[0].leftBarButtonItems = testCase.expected
    #expect(result.state == expected)
    #expect(result.events == [])
  }

  @Test("R17 moveBarButtonItem errors: item or anchor not in the array")
  func moveErrors() {
    expectFailure(
      before, [.moveBarButtonItem(navigationItem: "message", side: .right, item: "reply", before: nil)], .itemNotFound,
      field: "ops[0].barButtonItem")
    expectFailure(
      before, [.moveBarButtonItem(navigationItem: "message", side: .right, item: "done", before: "reply")],
      .itemNotFound,
      field: "ops[0].before")
    expectFailure(
      before, [.moveBarButtonItem(navigationItem: "drafts", side: .right, item: "done", before: nil)], .itemNotFound,
      field: "ops[0].item")
  }
}
