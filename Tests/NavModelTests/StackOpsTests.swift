import NavModel
import Testing

/// push, pop, popTo, setStack and updateNavigationItem: the whole new state and every event.
@Suite("Stack ops")
struct StackOpsTests {
  let before = Fixtures.scene

  // MARK: - push

  @Test("R9 push appends the item on top and announces it, animated as asked")
  func pushAppends() throws {
    for animated in [false, true] {
      let item = NavigationItem(id: "attachment", title: "Attachment", leftBarButtonItems: ["reply"])
      let result = try before.applying(.push(item, animated: animated))
      var expected = before
      expected.navigationBar.items.append(item)
      #expect(result.state == expected)
      #expect(result.events == [.push(item: "attachment", animated: animated)])
      #expect(result.animated == animated)
      #expect(result.state.navigationBar.topItem?.id == "attachment")
      #expect(result.state.navigationBar.backItem?.id == "message")
    }
  }

  @Test("R9 push onto an empty stack makes the root")
  func pushOntoEmpty() throws {
    let result = try SceneState.empty.applying(.push(NavigationItem(id: "root"), animated: true))
    #expect(result.state == SceneState(navigationBar: NavigationBarState(items: [NavigationItem(id: "root")])))
    #expect(result.events == [.push(item: "root", animated: true)])
  }

  @Test("R9 pushing an item already on the stack is an error")
  func pushDuplicate() {
    for id in ["inbox", "message"] {
      let error = expectFailure(
        before, [.push(NavigationItem(id: id), animated: false)], .itemAlreadyOnStack, field: "ops[0].item.id")
      #expect(error?.value == id)
    }
  }

  @Test("R9 R4 R5 a pushed item may only name bar button items that exist, each once per array")
  func pushReferences() {
    expectFailure(
      before, [.push(NavigationItem(id: "x", leftBarButtonItems: ["reply", "nope"]), animated: false)], .itemNotFound,
      field: "ops[0].item.leftBarButtonItems[1]")
    expectFailure(
      before, [.push(NavigationItem(id: "x", rightBarButtonItems: ["done", "add", "done"]), animated: false)],
      .duplicateItem, field: "ops[0].item.rightBarButtonItems[2]")
    expectFailure(
      before, [.push(NavigationItem(id: "x", backBarButtonItem: "ghost"), animated: false)], .itemNotFound,
      field: "ops[0].item.backBarButtonItem")
    expectFailure(before, [.push(NavigationItem(id: "-x"), animated: false)], .invalidMutation, field: "ops[0].item.id")
  }

  // MARK: - pop

  @Test("R10 pop removes the top item and announces it")
  func popRemovesTop() throws {
    for animated in [false, true] {
      let result = try before.applying(.pop(expectTop: nil, animated: animated))
      var expected = before
      expected.navigationBar.items.removeLast()
      #expect(result.state == expected)
      #expect(result.events == [.pop(items: ["message"], animated: animated)])
    }
  }

  @Test("R10 pop with expectTop pops when that item is on top")
  func popExpectTopMatches() throws {
    let result = try before.applying(.pop(expectTop: "message", animated: true))
    var expected = before
    expected.navigationBar.items.removeLast()
    #expect(result.state == expected)
    #expect(result.events == [.pop(items: ["message"], animated: true)])
  }

  @Test("R10 pop expecting another top item is a Conflict and pops nothing")
  func popExpectTopMismatch() {
    // "inbox" is on the stack, just not on top: still a conflict, never someone else's screen.
    for expected in ["inbox", "gone"] {
      let error = expectFailure(
        before, [.pop(expectTop: expected, animated: false)], .conflict, field: "ops[0].expectTop")
      #expect(error?.value == expected)
    }
    expectFailure(.empty, [.pop(expectTop: "inbox", animated: false)], .conflict, field: "ops[0].expectTop")
  }

  @Test("R10 expectTop is checked before the root rule")
  func popExpectTopFirst() {
    let state = Fixtures.scene(stack: ["root"])
    expectFailure(state, [.pop(expectTop: "other", animated: false)], .conflict, field: "ops[0].expectTop")
  }

  @Test("R10 popping the root is an error")
  func popRoot() {
    let state = Fixtures.scene(stack: ["root"])
    expectFailure(state, [.pop(expectTop: nil, animated: false)], .cannotPopRoot, field: "ops[0].op")
    expectFailure(state, [.pop(expectTop: "root", animated: true)], .cannotPopRoot, field: "ops[0].op")
  }

  @Test("R10 popping an empty stack is an error")
  func popEmpty() {
    expectFailure(.empty, [.pop(expectTop: nil, animated: false)], .cannotPopRoot, field: "ops[0].op")
  }

  @Test("R13 a popped item is gone: pushing its id again takes the new value")
  func repushAfterPop() throws {
    let again = NavigationItem(id: "message", title: "Another message")
    let result = try before.applying([.pop(expectTop: "message", animated: true), .push(again, animated: true)])
    var expected = before
    expected.navigationBar.items[1] = again
    #expect(result.state == expected)
    #expect(result.events == [.pop(items: ["message"], animated: true), .push(item: "message", animated: true)])
  }

  @Test("R5 a pushed or set item may not show one bar button item on both sides")
  func bothSides() {
    let item = NavigationItem(id: "x", leftBarButtonItems: ["share", "reply"], rightBarButtonItems: ["done", "reply"])
    let error = expectFailure(
      before, [.push(item, animated: false)], .duplicateItem, field: "ops[0].item.rightBarButtonItems")
    #expect(error?.value == "reply")
    expectFailure(
      before, [.setStack([item], animated: false)], .duplicateItem, field: "ops[0].items[0].rightBarButtonItems")
  }

  @Test("R3 navigation item ids and bar button item ids are separate namespaces")
  func separateNamespaces() throws {
    let item = NavigationItem(id: "share", rightBarButtonItems: ["share"])
    let result = try before.applying(.push(item, animated: false))
    #expect(result.state.navigationBar.topItem == item)
  }

  @Test("R5 one bar button item may be shown by several navigation items, the toolbar and a back slot at once")
  func sharedEverywhere() throws {
    let items = [
      NavigationItem(id: "a", backBarButtonItem: "done", rightBarButtonItems: ["done"]),
      NavigationItem(id: "b", leftBarButtonItems: ["done"]),
      NavigationItem(id: "c", rightBarButtonItems: ["done", "add"]),
    ]
    let result = try before.applying([.setStack(items, animated: false), .setToolbarItems(["done"], animated: false)])
    var expected = before
    expected.navigationBar.items = items
    expected.toolbar.items = ["done"]
    #expect(result.state == expected)
  }

  // MARK: - popTo

  @Test("R11 popTo removes every item above the named one, announced top first")
  func popToMiddle() throws {
    let state = Fixtures.scene(stack: ["a", "b", "c", "d"])
    let result = try state.applying(.popTo("b", animated: true))
    var expected = state
    expected.navigationBar.items.removeLast(2)
    #expect(result.state == expected)
    #expect(result.events == [.pop(items: ["d", "c"], animated: true)])

    let toRoot = try state.applying(.popTo("a", animated: false))
    #expect(toRoot.state.navigationBar.items.map(\.id) == ["a"])
    #expect(toRoot.events == [.pop(items: ["d", "c", "b"], animated: false)])
  }

  @Test("R11 popTo the top item changes nothing and announces nothing")
  func popToTop() throws {
    let result = try before.applying(.popTo("message", animated: true))
    #expect(result.state == before)
    #expect(result.events == [])
  }

  @Test("R11 popTo an item not on the stack is ItemNotFound")
  func popToUnknown() {
    let error = expectFailure(before, [.popTo("drafts", animated: false)], .itemNotFound, field: "ops[0].item")
    #expect(error?.value == "drafts")
  }

  // MARK: - setStack

  @Test("R12 setStack replaces the whole stack with the given values")
  func setStackReplaces() throws {
    let items = [
      NavigationItem(id: "settings", title: "Settings", rightBarButtonItems: ["done"]),
      NavigationItem(id: "inbox", title: "Inbox again"),
      NavigationItem(id: "about", backBarButtonItem: "back"),
    ]
    for animated in [false, true] {
      let result = try before.applying(.setStack(items, animated: animated))
      var expected = before
      expected.navigationBar.items = items
      #expect(result.state == expected)
      // "inbox" was the root, below the old top: the new top "about" is new, so a push.
      #expect(result.events == [.setStack(transition: .push, animated: animated)])
    }
  }

  @Test("R12 setStack with no items clears the stack")
  func setStackEmpty() throws {
    let result = try before.applying(.setStack([], animated: false))
    var expected = before
    expected.navigationBar.items = []
    #expect(result.state == expected)
    #expect(result.events == [.setStack(transition: .pop, animated: false)])
  }

  struct TransitionCase: Sendable, CustomTestStringConvertible {
    var old: [String]
    var new: [String]
    var transition: StackTransition
    var testDescription: String { "\(old) → \(new): \(transition)" }
  }

  static let transitionCases: [TransitionCase] = [
    TransitionCase(old: [], new: [], transition: .none),
    TransitionCase(old: ["a"], new: ["a"], transition: .none),
    TransitionCase(old: ["a", "b"], new: ["c", "b"], transition: .none),
    TransitionCase(old: ["a", "b"], new: [], transition: .pop),
    TransitionCase(old: ["a", "b"], new: ["a"], transition: .pop),
    TransitionCase(old: ["a", "b", "c"], new: ["x", "a"], transition: .pop),
    TransitionCase(old: ["a", "b"], new: ["b", "a"], transition: .pop),
    TransitionCase(old: ["a", "b"], new: ["a", "b", "c"], transition: .push),
    TransitionCase(old: ["a"], new: ["b"], transition: .push),
    TransitionCase(old: [], new: ["a"], transition: .push),
    TransitionCase(old: ["a", "b"], new: ["c"], transition: .push),
  ]

  @Test("R12 setStack's event says how to animate: push, pop or none", arguments: transitionCases)
  func setStackTransition(_ testCase: TransitionCase) throws {
    let state = Fixtures.scene(stack: testCase.old)
    let items = testCase.new.map { NavigationItem(id: $0) }
    for animated in [false, true] {
      let result = try state.applying(.setStack(items, animated: animated))
      #expect(result.state.navigationBar.items == items)
      #expect(result.events == [.setStack(transition: testCase.transition, animated: animated)])
      #expect(StackTransition(from: testCase.old, to: testCase.new) == testCase.transition)
    }
  }

  @Test("R12 setStack listing one id twice is DuplicateItem")
  func setStackDuplicate() {
    let items = [NavigationItem(id: "a"), NavigationItem(id: "b"), NavigationItem(id: "a")]
    let error = expectFailure(before, [.setStack(items, animated: false)], .duplicateItem, field: "ops[0].items[2].id")
    #expect(error?.value == "a")
  }

  @Test("R12 R4 R5 setStack checks every item's values and references")
  func setStackReferences() {
    expectFailure(
      before,
      [.setStack([NavigationItem(id: "a"), NavigationItem(id: "b", rightBarButtonItems: ["zzz"])], animated: false)],
      .itemNotFound, field: "ops[0].items[1].rightBarButtonItems[0]")
    expectFailure(
      before, [.setStack([NavigationItem(id: "a", leftBarButtonItems: ["share", "share"])], animated: false)],
      .duplicateItem, field: "ops[0].items[0].leftBarButtonItems[1]")
    expectFailure(
      before, [.setStack([NavigationItem(id: "")], animated: false)], .invalidMutation, field: "ops[0].items[0].id")
  }

  // MARK: - updateNavigationItem

  @Test("R16 updateNavigationItem sets every field of an item anywhere on the stack")
  func updateEveryField() throws {
    let fields: [NavigationItemField] = [
      .title("All mail"), .prompt("Syncing"), .titleView(CustomView(name: "search", width: 180)),
      .backBarButtonItem("reply"), .hidesBackButton(false), .leftItemsSupplementBackButton(true),
    ]
    let result = try before.applying(.updateNavigationItem("inbox", fields, animated: false))
    var expected = before
    expected.navigationBar.items[0].title = "All mail"
    expected.navigationBar.items[0].prompt = "Syncing"
    expected.navigationBar.items[0].titleView = CustomView(name: "search", width: 180, height: 30)
    expected.navigationBar.items[0].backBarButtonItem = "reply"
    expected.navigationBar.items[0].leftItemsSupplementBackButton = true
    #expect(result.state == expected)
    #expect(result.events == [])
  }

  @Test("R16 updateNavigationItem sets fields in order: a later write to a field wins")
  func updateInOrder() throws {
    let result = try before.applying(
      .updateNavigationItem("inbox", [.title("First"), .prompt("p"), .title("Second"), .prompt(nil)], animated: false))
    var expected = before
    expected.navigationBar.items[0].title = "Second"
    #expect(result.state == expected)
  }

  @Test("R16 updateNavigationItem with nil clears optional fields")
  func updateClears() throws {
    let result = try before.applying(
      .updateNavigationItem(
        "message",
        [.title(nil), .prompt(nil), .titleView(nil), .backBarButtonItem(nil), .leftItemsSupplementBackButton(false)],
        animated: false))
    var expected = before
    expected.navigationBar.items[1].title = nil
    expected.navigationBar.items[1].prompt = nil
    expected.navigationBar.items[1].leftItemsSupplementBackButton = false
    #expect(result.state == expected)
    #expect(result.events == [])
  }

  @Test("R14 R16 hidesBackButton is a field like the others: no event; animated only marks the update")
  func hidesBackButtonAnimated() throws {
    let shown = try before.applying(.updateNavigationItem("message", [.hidesBackButton(true)], animated: true))
    var expected = before
    expected.navigationBar.items[1].hidesBackButton = true
    #expect(shown.state == expected)
    #expect(shown.events == [])
    #expect(shown.animated)

    let back = try shown.state.applying(.updateNavigationItem("message", [.hidesBackButton(false)], animated: false))
    #expect(back.state == before)
    #expect(back.events == [])
    #expect(!back.animated)
  }

  @Test("R16 updateNavigationItem names an item on the stack and bar button items that exist")
  func updateErrors() {
    expectFailure(
      before, [.updateNavigationItem("drafts", [.title("x")], animated: false)], .itemNotFound, field: "ops[0].item")
    expectFailure(
      before, [.updateNavigationItem("inbox", [.backBarButtonItem("ghost")], animated: false)], .itemNotFound,
      field: "ops[0].set.backBarButtonItem")
    expectFailure(
      before, [.updateNavigationItem("inbox", [.titleView(CustomView(name: "v", width: -1))], animated: false)],
      .invalidMutation, field: "ops[0].set.titleView.width")
  }

  // MARK: - setBarHidden

  @Test("R57 setBarHidden hides and shows each bar and changes nothing else")
  func setBarHidden() throws {
    for bar in Bar.allCases {
      for animated in [false, true] {
        let hidden = try before.applying(.setBarHidden(bar, hidden: true, animated: animated))
        var expected = before
        switch bar {
        case .navigationBar: expected.navigationBar.hidden = true
        case .toolbar: expected.toolbar.hidden = true
        }
        #expect(hidden.state == expected)
        #expect(hidden.events == [])
        #expect(hidden.animated == animated)

        let shown = try hidden.state.applying(.setBarHidden(bar, hidden: false, animated: animated))
        #expect(shown.state == before)
        #expect(shown.events == [])
      }
    }
  }
}
