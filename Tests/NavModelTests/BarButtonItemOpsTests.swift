import NavModel
import Testing

/// Bar button items: defining, updating and deleting them, and the left/right arrays that show them.
@Suite("Bar button item ops")
struct BarButtonItemOpsTests {
  let before = Fixtures.scene

  // MARK: - define / update / delete

  @Test("R43 defineBarButtonItem adds the item to the scene, after those already defined")
  func define() throws {
    let result = try before.applying(.defineBarButtonItem(Fixtures.fullButton))
    var expected = before
    expected.barButtonItems = BarButtonItemRegistry(Fixtures.buttons + [Fixtures.fullButton])
    #expect(result.state == expected)
    #expect(result.state.barButtonItems.items.last == Fixtures.fullButton)
    #expect(result.events == [])
  }

  @Test("R43 R69 defining an id twice is DuplicateItem")
  func defineTwice() {
    let error = expectFailure(
      before, [.defineBarButtonItem(Fixtures.button("share"))], .duplicateItem, field: "ops[0].barButtonItem.id")
    #expect(error?.value == "share")
    expectFailure(
      .empty, [.defineBarButtonItem(Fixtures.button("x")), .defineBarButtonItem(Fixtures.button("x"))], .duplicateItem,
      field: "ops[1].barButtonItem.id", opIndex: 1)
  }

  @Test("R41 a system item defined with a title or image is an error")
  func defineSystemWithTitle() {
    expectFailure(
      before, [.defineBarButtonItem(BarButtonItem(id: "x", systemItem: .save, title: "Save"))], .invalidMutation,
      field: "ops[0].barButtonItem.systemItem")
    expectFailure(
      before, [.defineBarButtonItem(BarButtonItem(id: "x", systemItem: .save, image: ImageRef(name: "disk")))],
      .invalidMutation, field: "ops[0].barButtonItem.systemItem")
  }

  @Test("R43 updateBarButtonItem sets every property; the item stays where it is shown")
  func updateEveryProperty() throws {
    let fields: [BarButtonItemField] = [
      .style(.bordered), .title("Forward"), .image(ImageRef(name: "arrow", opaque: false)), .width(64),
      .possibleTitles(["Fwd", "Forward"]), .customView(CustomView(name: "spinner", width: 20, height: 20)),
      .enabled(false), .tag(42), .tintColor(Color(red: 255, green: 0, blue: 0)), .action("mail.forward"),
    ]
    let result = try before.applying(.updateBarButtonItem("share", fields))
    var expected = before
    expected.barButtonItems["share"] = BarButtonItem(
      id: "share", style: .bordered, title: "Forward", image: ImageRef(name: "arrow", opaque: false), width: 64,
      possibleTitles: ["Fwd", "Forward"], customView: CustomView(name: "spinner", width: 20, height: 20),
      enabled: false,
      tag: 42, tintColor: Color(red: 255, green: 0, blue: 0), action: "mail.forward")
    #expect(result.state == expected)
    #expect(result.state.barButtonItems.items.map(\.id) == Fixtures.buttons.map(\.id))
    #expect(result.events == [])
  }

  @Test("R39 R43 updateBarButtonItem with nil clears optional properties")
  func updateClears() throws {
    let state = try before.applying(.defineBarButtonItem(Fixtures.fullButton)).state
    let result = try state.applying(
      .updateBarButtonItem(
        Fixtures.fullButton.id,
        [.title(nil), .image(nil), .width(nil), .possibleTitles([]), .customView(nil), .tintColor(nil), .action(nil)]))
    var expected = state
    expected.barButtonItems[Fixtures.fullButton.id] = BarButtonItem(
      id: Fixtures.fullButton.id, style: .done, enabled: false, tag: Fixtures.fullButton.tag)
    #expect(result.state == expected)
  }

  @Test("R43 updateBarButtonItem sets fields in order: a later write to a field wins")
  func updateInOrder() throws {
    let result = try before.applying(
      .updateBarButtonItem("share", [.title("One"), .enabled(false), .title("Two"), .enabled(true), .tag(1), .tag(2)]))
    var expected = before
    expected.barButtonItems["share"] = BarButtonItem(id: "share", title: "Two", tag: 2)
    #expect(result.state == expected)
  }

  @Test("R43 updating an item updates every place that shows it: places hold ids, not copies")
  func updateShownEverywhere() throws {
    let result = try before.applying(.updateBarButtonItem("share", [.title("Forward")]))
    #expect(result.state.navigationBar == before.navigationBar)
    #expect(result.state.toolbar == before.toolbar)
    #expect(result.state.barButtonItems["share"]?.title == "Forward")
  }

  @Test("R43 updating an item that is not defined is ItemNotFound")
  func updateUnknown() {
    let error = expectFailure(
      before, [.updateBarButtonItem("ghost", [.enabled(false)])], .itemNotFound, field: "ops[0].barButtonItem")
    #expect(error?.value == "ghost")
  }

  // MARK: - the system item rule

  @Test("R41 a title or image set on a system item turns it into a custom item")
  func titleOrImageMakesCustom() throws {
    let titled = try before.applying(.updateBarButtonItem("done", [.title("Finish")]))
    var expected = before
    expected.barButtonItems["done"] = BarButtonItem(id: "done", title: "Finish")
    #expect(titled.state == expected)

    let imaged = try before.applying(.updateBarButtonItem("done", [.image(ImageRef(name: "check"))]))
    expected.barButtonItems["done"] = BarButtonItem(id: "done", image: ImageRef(name: "check"))
    #expect(imaged.state == expected)
  }

  @Test("R41 clearing a title or image that a system item does not have keeps it a system item")
  func clearingKeepsSystem() throws {
    let result = try before.applying(.updateBarButtonItem("done", [.title(nil), .image(nil), .style(.done)]))
    var expected = before
    expected.barButtonItems["done"] = BarButtonItem(id: "done", systemItem: .done, style: .done)
    #expect(result.state == expected)
  }

  @Test("R41 R43 setting systemItem together with a title, image or custom view in one update is InvalidMutation")
  func systemItemWithTitle() throws {
    let fieldSets: [[BarButtonItemField]] = [
      [.systemItem(.save), .title("Save")], [.title("Save"), .systemItem(.save)],
      [.systemItem(.save), .image(ImageRef(name: "disk"))],
      [.customView(CustomView(name: "v", width: 9)), .systemItem(.save)],
    ]
    for fields in fieldSets {
      let error = expectFailure(
        before, [.updateBarButtonItem("share", fields)], .invalidMutation, field: "ops[0].set.systemItem")
      #expect(error?.value == "share")
    }
    // Clearing the others while setting systemItem is fine: null never converts.
    let cleared = try before.applying(.updateBarButtonItem("share", [.systemItem(.save), .title(nil), .image(nil)]))
    #expect(cleared.state.barButtonItems["share"] == BarButtonItem(id: "share", systemItem: .save))
  }

  @Test("R41 setting systemItem clears the title and image")
  func systemItemClearsTitleAndImage() throws {
    let state = try before.applying(.updateBarButtonItem("share", [.image(ImageRef(name: "square.arrow"))])).state
    let result = try state.applying(.updateBarButtonItem("share", [.systemItem(.action)]))
    var expected = before
    expected.barButtonItems["share"] = BarButtonItem(id: "share", systemItem: .action)
    #expect(result.state == expected)
  }

  @Test("R41 a custom view set on a system item turns it custom; setting systemItem clears the custom view")
  func customViewRule() throws {
    let view = CustomView(name: "slider", width: 120)
    let custom = try before.applying(.updateBarButtonItem("done", [.customView(view)]))
    var expected = before
    expected.barButtonItems["done"] = BarButtonItem(id: "done", customView: view)
    #expect(custom.state == expected)

    let system = try custom.state.applying(.updateBarButtonItem("done", [.systemItem(.done)]))
    #expect(system.state == before)

    expectFailure(
      before, [.defineBarButtonItem(BarButtonItem(id: "x", systemItem: .save, customView: view))], .invalidMutation,
      field: "ops[0].barButtonItem.systemItem")
    // Clearing the custom view of a system item never converts it.
    let cleared = try before.applying(.updateBarButtonItem("done", [.customView(nil)]))
    #expect(cleared.state == before)
  }

  @Test("R41 setting systemItem to nil makes an untitled custom item")
  func systemItemNil() throws {
    let result = try before.applying(.updateBarButtonItem("add", [.systemItem(nil)]))
    var expected = before
    expected.barButtonItems["add"] = BarButtonItem(id: "add")
    #expect(result.state == expected)
  }

  // MARK: - delete

  @Test("R44 deleteBarButtonItem removes the item from every array, the toolbar and back slots")
  func deleteEverywhere() throws {
    var state = before
    state.navigationBar.items.append(
      NavigationItem(
        id: "third", backBarButtonItem: "share", leftBarButtonItems: ["reply", "share"], rightBarButtonItems: ["share"])
    )
    state.navigationBar.items[0].backBarButtonItem = "share"
    let result = try state.applying(.deleteBarButtonItem("share"))
    var expected = state
    expected.barButtonItems["share"] = nil
    expected.navigationBar.items[0].backBarButtonItem = nil
    expected.navigationBar.items[1].leftBarButtonItems = []
    expected.navigationBar.items[2] = NavigationItem(id: "third", leftBarButtonItems: ["reply"])
    expected.toolbar.items = ["flex", "fixed", "reply"]
    #expect(result.state == expected)
    #expect(result.events == [])
    #expect(!result.state.barButtonItems.contains("share"))
  }

  @Test("R44 R43 an id can be defined again after it was deleted")
  func deleteThenDefine() throws {
    let result = try before.applying([
      .deleteBarButtonItem("reply"), .defineBarButtonItem(Fixtures.button("reply", title: "Re")),
    ])
    #expect(
      result.state.barButtonItems.items.map(\.id) == ["back", "done", "edit", "share", "add", "flex", "fixed", "reply"])
    #expect(result.state.barButtonItems["reply"]?.title == "Re")
    #expect(result.state.toolbar.items == ["flex", "share", "fixed"])
  }

  @Test("R44 deleting an item that is not defined is ItemNotFound")
  func deleteUnknown() {
    expectFailure(before, [.deleteBarButtonItem("ghost")], .itemNotFound, field: "ops[0].barButtonItem")
  }
}
