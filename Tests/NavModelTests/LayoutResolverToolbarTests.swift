import NavModel
import Testing

/// The toolbar with a width (SEMANTICS R47), with examples 4 and 5 of SEMANTICS §20.
@Suite("Layout resolver: toolbar")
struct LayoutResolverToolbarTests {
  typealias S = LayoutScenes

  static func toolbar(_ items: [BarButtonItem], width: Double) -> ToolbarLayout {
    LayoutResolver.resolve(S.scene([], items: items, toolbar: items.map(\.id)), metrics: LayoutMetrics(width: width))
      .toolbar
  }

  @Test("R47 example 4: two flexible spaces share the free width between three system items")
  func example4Shared() {
    let toolbar = Self.toolbar(
      [
        S.system("trash", .trash), S.system("flex1", .flexibleSpace), S.system("reply", .reply),
        S.system("flex2", .flexibleSpace), S.system("compose", .compose),
      ], width: 375)
    #expect(
      toolbar.items.geometry == [
        "trash@8.0+30.0", "flex1@38.0+134.5", "reply@172.5+30.0", "flex2@202.5+134.5", "compose@337.0+30.0",
      ])
    #expect(toolbar.overflow.isEmpty)
  }

  @Test("R47 R34 example 4: a fixed space takes its width with no gaps around it")
  func example4Mixed() {
    let toolbar = Self.toolbar(
      [
        S.system("a", .add), S.system("fx", .fixedSpace, width: 20), S.system("b", .bookmarks),
        S.titled("c", "Edit"), S.system("f", .flexibleSpace), S.system("d", .done), S.system("e", .camera),
      ], width: 375)
    #expect(
      toolbar.items.geometry == [
        "a@8.0+30.0", "fx@38.0+20.0", "b@58.0+30.0", "c@96.0+48.0", "f@144.0+155.0", "d@299.0+30.0",
        "e@337.0+30.0",
      ])
  }

  @Test("R47 example 5: exact fit, then overflow with no free width to share")
  func example5ExactFit() {
    let toolbar = Self.toolbar(
      [
        S.titled("select", "Select"), S.titled("move", "Move"), S.system("flex", .flexibleSpace),
        S.titled("delete", "Delete"), S.titled("more", "More"),
      ], width: 200)
    #expect(toolbar.items.geometry == ["select@8.0+64.0", "move@80.0+48.0", "flex@128.0+0.0", "delete@128.0+64.0"])
    #expect(toolbar.overflow.map(\.id) == ["more"])
    #expect(toolbar.overflow.allSatisfy { $0.extent == nil })
  }

  @Test("R47 overflowed spaces are dropped; without flexible spaces the free width stays at the right end")
  func overflowDropsSpaces() {
    let toolbar = Self.toolbar(
      [
        S.system("a", .add), S.system("b", .edit), S.system("c", .done), S.system("fixed", .fixedSpace, width: 5),
        S.system("flex", .flexibleSpace), S.titled("d"),
      ], width: 100)
    #expect(toolbar.items.geometry == ["a@8.0+30.0", "b@46.0+30.0"])
    #expect(toolbar.overflow.map(\.id) == ["c", "d"])
  }

  @Test("R47 a flexible space ignores its width; an unset fixed space is 0 wide")
  func spaceWidths() {
    let toolbar = Self.toolbar(
      [
        S.system("a", .add), S.system("flex", .flexibleSpace, width: 50), S.system("fixed", .fixedSpace),
        S.system("b", .edit),
      ], width: 200)
    // used = 8 + 30 + 0 + 0 + 30 = 68; F = 200 − 76 = 124.
    #expect(toolbar.items.geometry == ["a@8.0+30.0", "flex@38.0+124.0", "fixed@162.0+0.0", "b@162.0+30.0"])
  }

  @Test("R47 a single flexible space pushes the following items to the right edge")
  func trailingItems() {
    let toolbar = Self.toolbar(
      [S.system("flex", .flexibleSpace), S.titled("edit", "Edit"), S.titled("done", "Done")], width: 320)
    // used = 8 + 0 + 48 + 8 + 48 = 112; F = 320 − 120 = 200.
    #expect(toolbar.items.geometry == ["flex@8.0+200.0", "edit@208.0+48.0", "done@264.0+48.0"])
    #expect(toolbar.items.last.map { $0.extent!.end } == 312)
  }

  @Test("R47 a narrow toolbar: nothing fits, not even a flexible space, and only non-spaces overflow")
  func nothingFits() {
    let toolbar = Self.toolbar([S.system("flex", .flexibleSpace), S.system("a", .add)], width: 10)
    #expect(toolbar.items.isEmpty)
    #expect(toolbar.overflow.map(\.id) == ["a"])
  }

  @Test("R46 R47 the toolbar is laid out independently of the navigation stack")
  func independentOfStack() {
    let items = [S.system("a", .add), S.system("flex", .flexibleSpace), S.system("b", .edit)]
    let withoutStack = LayoutResolver.resolve(
      S.scene([], items: items, toolbar: ["a", "flex", "b"]), metrics: LayoutMetrics(width: 320))
    let withStack = LayoutResolver.resolve(
      S.scene(
        [NavigationItem(id: "n", title: "N", rightBarButtonItems: ["a"])], items: items, toolbar: ["a", "flex", "b"]),
      metrics: LayoutMetrics(width: 320))
    #expect(withoutStack.toolbar == withStack.toolbar)
  }
}
