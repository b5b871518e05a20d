import NavCtlKit
import NavModel
import Testing

/// What each mutating command sends, built from a state snapshot.
@Suite("Mutation plans")
struct MutationPlanTests {
  /// Mailboxes → Inbox, with edit and compose defined.
  static let mail: SceneState = try! Support.scene([
    "item edit --system edit", "item compose --system compose", "push Mailboxes --id mailboxes",
    "push Inbox --id inbox --left edit --right compose",
  ])

  @Test("push without --id makes the id from the title, with a suffix when taken, and prints it")
  func pushGeneratesId() throws {
    let first = try Support.build("push 'Café Menu'")
    #expect(first.generatedIds == ["cafe-menu"])
    #expect(first.ops == [.push(NavigationItem(id: "cafe-menu", title: "Café Menu"), animated: false)])
    let taken = try Support.build("push Inbox", on: Self.mail)
    #expect(taken.generatedIds == ["inbox-2"])
    let plan = try Support.parse("push Inbox --id inbox2")
    guard case .mutate(let fixed) = plan.action else { throw Failure() }
    #expect(!fixed.needsState)
  }

  @Test("push carries every option into the pushed item")
  func pushOptions() throws {
    let build = try Support.build(
      "push Message --id message --left a,b --left c --right r --back-button back --prompt 'Hi there' --hide-back --supplement-back --title-view logo --title-view-width 120 --animated"
    )
    let item = NavigationItem(
      id: "message", title: "Message", prompt: "Hi there", titleView: CustomView(name: "logo", width: 120),
      backBarButtonItem: "back", hidesBackButton: true, leftItemsSupplementBackButton: true,
      leftBarButtonItems: ["a", "b", "c"], rightBarButtonItems: ["r"])
    #expect(build.ops == [.push(item, animated: true)])
  }

  @Test("pop, pop-to and set-stack")
  func stackOps() throws {
    #expect(try Support.build("pop --expect inbox --animated").ops == [.pop(expectTop: "inbox", animated: true)])
    #expect(try Support.build("pop-to mailboxes").ops == [.popTo("mailboxes", animated: false)])
    let set = try Support.build("set-stack inbox=Archive fresh=New fresh2", on: Self.mail).ops
    var inbox = Self.mail.navigationBar.items[1]
    inbox.title = "Archive"
    #expect(
      set == [
        .setStack([inbox, NavigationItem(id: "fresh", title: "New"), NavigationItem(id: "fresh2")], animated: false)
      ])
    #expect(try Support.build("set-stack").ops == [.setStack([], animated: false)])
    #expect(Support.usageError("set-stack a a") != nil)
  }

  @Test("navigation item commands act on the top item unless --item names one")
  func topItemDefault() throws {
    #expect(
      try Support.build("title 'Inbox (3)'", on: Self.mail).ops == [
        .updateNavigationItem("inbox", [.title("Inbox (3)")], animated: false)
      ])
    #expect(
      try Support.build("title --clear --item mailboxes --animated").ops == [
        .updateNavigationItem("mailboxes", [.title(nil)], animated: true)
      ])
    #expect(
      try Support.build("prompt 'Pick one'", on: Self.mail).ops == [
        .updateNavigationItem("inbox", [.prompt("Pick one")], animated: false)
      ])
    #expect(
      try Support.build("title-view logo --width 100 --height 20", on: Self.mail).ops == [
        .updateNavigationItem("inbox", [.titleView(CustomView(name: "logo", width: 100, height: 20))], animated: false)
      ])
    #expect(
      try Support.build("back-button mail --item mailboxes").ops == [
        .updateNavigationItem("mailboxes", [.backBarButtonItem("mail")], animated: false)
      ])
    #expect(
      try Support.build("hide-back", on: Self.mail).ops == [
        .updateNavigationItem("inbox", [.hidesBackButton(true)], animated: false)
      ])
    #expect(
      try Support.build("show-back", on: Self.mail).ops == [
        .updateNavigationItem("inbox", [.hidesBackButton(false)], animated: false)
      ])
    #expect(
      try Support.build("supplement-back on", on: Self.mail).ops == [
        .updateNavigationItem("inbox", [.leftItemsSupplementBackButton(true)], animated: false)
      ])
  }

  @Test("with an empty stack, defaulting to the top item is ItemNotFound")
  func emptyStack() throws {
    #expect(throws: NavError.self) { try Support.build("title Hello") }
    do {
      _ = try Support.build("hide-back")
    } catch let error as NavError {
      #expect(error.code == .itemNotFound)
      #expect(error.message.contains("push an item first"))
    }
  }

  @Test("left and right commands", arguments: [BarSide.left, .right])
  func sides(_ side: BarSide) throws {
    let s = side.rawValue
    #expect(
      try Support.build("\(s) set a b,c", on: Self.mail).ops == [
        .setBarButtonItems(navigationItem: "inbox", side: side, items: ["a", "b", "c"], animated: false)
      ])
    #expect(
      try Support.build("\(s) add a --before b --item mailboxes").ops == [
        .insertBarButtonItem(navigationItem: "mailboxes", side: side, item: "a", before: "b")
      ])
    #expect(
      try Support.build("\(s) remove a", on: Self.mail).ops == [
        .removeBarButtonItem(navigationItem: "inbox", side: side, item: "a")
      ])
    #expect(
      try Support.build("\(s) move a", on: Self.mail).ops == [
        .moveBarButtonItem(navigationItem: "inbox", side: side, item: "a", before: nil)
      ])
    #expect(
      try Support.build("\(s) clear --animated", on: Self.mail).ops == [
        .setBarButtonItems(navigationItem: "inbox", side: side, items: [], animated: true)
      ])
    #expect(
      try Support.build("\(s) first x", on: Self.mail).ops == [
        .setBarButtonItem(navigationItem: "inbox", side: side, item: "x", animated: false)
      ])
    #expect(
      try Support.build("\(s) first", on: Self.mail).ops == [
        .setBarButtonItem(navigationItem: "inbox", side: side, item: nil, animated: false)
      ])
  }

  @Test("item defines an item that does not exist")
  func itemDefines() throws {
    let build = try Support.build(
      "item reply --title Reply --disabled --tag 4 --style done --width 70 --possible-title 'Reply All' --tint #ff950080 --action reply"
    )
    let item = BarButtonItem(
      id: "reply", style: .done, title: "Reply", width: 70, possibleTitles: ["Reply All"], enabled: false, tag: 4,
      tintColor: Color(red: 0xFF, green: 0x95, blue: 0, alpha: 0x80), action: "reply")
    #expect(build.ops == [.defineBarButtonItem(item)])
    #expect(build.generatedIds == [])
  }

  @Test("item updates an item that exists, with only the options given")
  func itemUpdates() throws {
    let build = try Support.build("item edit --title Change --tint none --unset action", on: Self.mail)
    #expect(build.ops == [.updateBarButtonItem("edit", [.action(nil), .title("Change"), .tintColor(nil)])])
    #expect(try Support.build("item edit", on: Self.mail).ops == [])
    #expect(
      try Support.build("item edit --custom-view clock --view-width 64", on: Self.mail).ops == [
        .updateBarButtonItem("edit", [.customView(CustomView(name: "clock", width: 64))])
      ])
  }

  @Test("item without an id makes one from the title, system item or image, and prints it")
  func itemGeneratesId() throws {
    let titled = try Support.build("item --title 'Mark All Read'")
    #expect(titled.generatedIds == ["mark-all-read"])
    let system = try Support.build("item --system compose", on: Self.mail)
    #expect(system.generatedIds == ["compose-2"])
    #expect(system.ops == [.defineBarButtonItem(BarButtonItem(id: "compose-2", systemItem: .compose))])
  }

  @Test("delete-item, toolbar, tint and bar visibility")
  func otherOps() throws {
    #expect(try Support.build("delete-item edit").ops == [.deleteBarButtonItem("edit")])
    #expect(try Support.build("toolbar set a b").ops == [.setToolbarItems(["a", "b"], animated: false)])
    #expect(try Support.build("toolbar add a --before b").ops == [.insertToolbarItem("a", before: "b")])
    #expect(try Support.build("toolbar remove a").ops == [.removeToolbarItem("a")])
    #expect(try Support.build("toolbar move a").ops == [.moveToolbarItem("a", before: nil)])
    #expect(try Support.build("toolbar clear").ops == [.setToolbarItems([], animated: false)])
    #expect(try Support.build("toolbar hide --animated").ops == [.setBarHidden(.toolbar, hidden: true, animated: true)])
    #expect(try Support.build("toolbar show").ops == [.setBarHidden(.toolbar, hidden: false, animated: false)])
    #expect(
      try Support.build("navigation-bar hide").ops == [.setBarHidden(.navigationBar, hidden: true, animated: false)])
    #expect(try Support.build("tint 34c759").ops == [.setSceneTint(Color(red: 0x34, green: 0xC7, blue: 0x59))])
    #expect(try Support.build("tint none --default-items").ops == [.setDefaultItemTint(nil)])
  }

  @Test("appearance sets the options given on its target")
  func appearance() throws {
    let build = try Support.build(
      "appearance defaults-toolbar --style black --tint #FF9500 --bar-tint none --translucent unset --shadow-image line --background-image wood --position bottom --metrics compact --image-translucent"
    )
    #expect(
      build.ops == [
        .updateAppearance(
          .defaultToolbar,
          [
            .barStyle(.black), .tintColor(Color(red: 0xFF, green: 0x95, blue: 0)), .barTintColor(nil),
            .translucent(nil), .shadowImage(ImageRef(name: "line")),
            .backgroundImage(ImageRef(name: "wood", opaque: false), position: .bottom, metrics: .compact),
          ])
      ])
    #expect(
      try Support.build("appearance toolbar --style unset --translucent no").ops == [
        .updateAppearance(.toolbar, [.barStyle(nil), .translucent(false)])
      ])
  }

  @Test("title attributes are merged into the current ones")
  func titleAttributesMerge() throws {
    let state = try Support.scene(["appearance navigation-bar --title-font Inter --title-color #112233"])
    let build = try Support.build("appearance navigation-bar --title-size 17", on: state)
    #expect(
      build.ops == [
        .updateAppearance(
          .navigationBar,
          [
            .titleTextAttributes(
              TitleTextAttributes(font: "Inter", size: 17, color: Color(red: 0x11, green: 0x22, blue: 0x33)))
          ])
      ])
    #expect(
      try Support.build("appearance navigation-bar --clear-title-attributes").ops == [
        .updateAppearance(.navigationBar, [.titleTextAttributes(nil)])
      ])
  }

  @Test("a plan's ops apply to the state it was built from")
  func plansApply() throws {
    let state = try Support.scene(HelpFormatter.walkthrough.map(\.command).filter { !["show", "watch"].contains($0) })
    #expect(state.navigationBar.items.map(\.id) == ["inbox"])
    #expect(state.toolbar.items == ["refresh", "flex", "trash"])
  }

  struct Failure: Error {}
}
