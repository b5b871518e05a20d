import NavModel
import Testing

/// The toolbar's items: set, insert, remove, move.
@Suite("Toolbar ops")
struct ToolbarOpsTests {
  let before = Fixtures.scene

  @Test("R46 setToolbarItems replaces the toolbar's items; the toolbar emits no events")
  func setItems() throws {
    for animated in [false, true] {
      let result = try before.applying(.setToolbarItems(["reply", "flex", "done"], animated: animated))
      var expected = before
      expected.toolbar.items = ["reply", "flex", "done"]
      #expect(result.state == expected)
      #expect(result.events == [])
      #expect(result.animated == animated)
    }
    let cleared = try before.applying(.setToolbarItems([], animated: false))
    var expected = before
    expected.toolbar.items = []
    #expect(cleared.state == expected)
    #expect(cleared.events == [])
  }

  @Test("R46 setToolbarItems needs defined ids, each once")
  func setItemsErrors() {
    let error = expectFailure(
      before, [.setToolbarItems(["flex", "ghost"], animated: false)], .itemNotFound, field: "ops[0].items[1]")
    #expect(error?.value == "ghost")
    expectFailure(
      before, [.setToolbarItems(["flex", "done", "flex"], animated: false)], .duplicateItem, field: "ops[0].items[2]")
  }

  @Test("R46 insertToolbarItem puts the item before its anchor, or at the end")
  func insert() throws {
    let atEnd = try before.applying(.insertToolbarItem("done", before: nil))
    var expected = before
    expected.toolbar.items = ["flex", "share", "fixed", "reply", "done"]
    #expect(atEnd.state == expected)
    #expect(atEnd.events == [])

    let first = try before.applying(.insertToolbarItem("done", before: "flex"))
    expected.toolbar.items = ["done", "flex", "share", "fixed", "reply"]
    #expect(first.state == expected)

    let middle = try before.applying(.insertToolbarItem("done", before: "fixed"))
    expected.toolbar.items = ["flex", "share", "done", "fixed", "reply"]
    #expect(middle.state == expected)

    let intoEmpty = try Fixtures.scene(buttonCount: 1).applying(.insertToolbarItem("b0", before: nil))
    #expect(intoEmpty.state.toolbar.items == ["b0"])
  }

  @Test("R46 insertToolbarItem errors: unknown item, already in the toolbar, anchor not in the toolbar")
  func insertErrors() {
    expectFailure(before, [.insertToolbarItem("ghost", before: nil)], .itemNotFound, field: "ops[0].barButtonItem")
    expectFailure(before, [.insertToolbarItem("share", before: nil)], .duplicateItem, field: "ops[0].barButtonItem")
    let error = expectFailure(
      before, [.insertToolbarItem("done", before: "edit")], .itemNotFound, field: "ops[0].before")
    #expect(error?.value == "edit")
  }

  @Test("R46 removeToolbarItem takes the item out of the toolbar only")
  func remove() throws {
    let result = try before.applying(.removeToolbarItem("share"))
    var expected = before
    expected.toolbar.items = ["flex", "fixed", "reply"]
    #expect(result.state == expected)
    #expect(result.state.navigationBar.items[1].leftBarButtonItems == ["share"])
    #expect(result.events == [])
  }

  @Test("R46 removeToolbarItem of an item not in the toolbar is ItemNotFound")
  func removeErrors() {
    expectFailure(before, [.removeToolbarItem("done")], .itemNotFound, field: "ops[0].barButtonItem")
    expectFailure(before, [.removeToolbarItem("ghost")], .itemNotFound, field: "ops[0].barButtonItem")
  }

  @Test("R46 moveToolbarItem moves the item to just before its anchor, or to the end")
  func move() throws {
    let cases: [(String, String?, [String])] = [
      ("flex", nil, ["share", "fixed", "reply", "flex"]),
      ("reply", "flex", ["reply", "flex", "share", "fixed"]),
      ("share", "reply", ["flex", "fixed", "share", "reply"]),
      ("fixed", "share", ["flex", "fixed", "share", "reply"]),
      ("reply", nil, ["flex", "share", "fixed", "reply"]),
      // Before itself: no change.
      ("share", "share", ["flex", "share", "fixed", "reply"]),
    ]
    for (item, anchor, order) in cases {
      let result = try before.applying(.moveToolbarItem(item, before: anchor))
      var expected = before
      expected.toolbar.items = order
      #expect(result.state == expected, "move \(item) before \(anchor ?? "end")")
      #expect(result.events == [])
    }
  }

  @Test("R46 moveToolbarItem errors: item or anchor not in the toolbar")
  func moveErrors() {
    expectFailure(before, [.moveToolbarItem("done", before: nil)], .itemNotFound, field: "ops[0].barButtonItem")
    expectFailure(before, [.moveToolbarItem("flex", before: "done")], .itemNotFound, field: "ops[0].before")
  }
}
