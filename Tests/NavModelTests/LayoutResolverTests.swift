import NavModel
import Testing

/// What the navigation bar and toolbar show, without geometry (SEMANTICS
/// R8, R19–R22, R26–R29, R42, R45, R46, R57, R58).
@Suite("Layout resolver")
struct LayoutResolverTests {
  typealias S = LayoutScenes

  // MARK: - Centre

  @Test("R19 an empty stack has a null centre, no top item and nothing on either side")
  func emptyStack() {
    let bar = LayoutResolver.resolve(.empty).navigationBar
    #expect(bar.centre == nil)
    #expect(bar.topItem == nil)
    #expect(bar.prompt == nil)
    #expect(bar.backButton == nil)
    #expect(bar.left.isEmpty && bar.right.isEmpty && bar.overflow.isEmpty)
  }

  @Test("R19 the centre shows the top item's title view, else its title")
  func centreKinds() {
    let view = CustomView(name: "segments", width: 120, height: 28)
    var state = S.scene([NavigationItem(id: "a", title: "A"), NavigationItem(id: "b", title: "B", titleView: view)])
    #expect(
      LayoutResolver.resolve(state).navigationBar.centre
        == CentreLayout(kind: .titleView, title: "B", titleView: view))
    state.navigationBar.items[1].titleView = nil
    #expect(
      LayoutResolver.resolve(state).navigationBar.centre == CentreLayout(kind: .title, title: "B", titleView: nil))
    #expect(LayoutResolver.resolve(state).navigationBar.topItem == "b")
  }

  @Test("R20 left items suppress the title view, whatever the flags and even when overflowed")
  func titleViewYieldsToLeftItems() {
    let view = CustomView(name: "segments", width: 120)
    for supplements in [false, true] {
      for hides in [false, true] {
        let state = S.scene(
          [
            NavigationItem(id: "a", title: "A"),
            NavigationItem(
              id: "b", title: "B", titleView: view, hidesBackButton: hides, leftItemsSupplementBackButton: supplements,
              leftBarButtonItems: ["wide"]),
          ], items: [BarButtonItem(id: "wide", width: 5000)])
        for metrics in [nil, LayoutMetrics(width: 320)] {
          let bar = LayoutResolver.resolve(state, metrics: metrics).navigationBar
          #expect(bar.centre?.kind == .title)
          #expect(bar.centre?.titleView == nil)
          if metrics != nil { #expect(bar.overflowIDs == ["left:wide"]) }
        }
      }
    }
  }

  @Test("R20 a back button alone does not suppress the title view")
  func backButtonKeepsTitleView() {
    let view = CustomView(name: "segments", width: 120)
    let state = S.scene([NavigationItem(id: "a", title: "A"), NavigationItem(id: "b", titleView: view)])
    let bar = LayoutResolver.resolve(state).navigationBar
    #expect(bar.backButton != nil)
    #expect(bar.centre?.kind == .titleView)
  }

  @Test("R21 the title is verbatim, null when unset, with no fallback")
  func titleVerbatim() {
    for title in [nil, "", "  Spaced  ", "Détails 😀"] as [String?] {
      let state = S.scene([NavigationItem(id: "a", title: title)])
      let centre = LayoutResolver.resolve(state).navigationBar.centre
      #expect(centre == CentreLayout(kind: .title, title: title, titleView: nil))
    }
  }

  // MARK: - Prompt

  @Test("R22 the prompt is the top item's when set and non-empty; the back item's is never shown")
  func prompt() {
    var state = S.scene([NavigationItem(id: "a", prompt: "Below"), NavigationItem(id: "b", prompt: "Choose")])
    #expect(LayoutResolver.resolve(state).navigationBar.prompt == "Choose")
    state.navigationBar.items[1].prompt = ""
    #expect(LayoutResolver.resolve(state).navigationBar.prompt == nil)
    state.navigationBar.items[1].prompt = nil
    #expect(LayoutResolver.resolve(state).navigationBar.prompt == nil)
  }

  // MARK: - Sides

  @Test("R26 left items are shown left to right in array order")
  func leftOrder() {
    let state = S.scene(
      [NavigationItem(id: "a", leftBarButtonItems: ["x", "y", "z"])],
      items: [S.titled("z"), S.titled("x"), S.titled("y")])
    #expect(LayoutResolver.resolve(state).navigationBar.leftIDs == ["x", "y", "z"])
  }

  @Test("R28 right items are shown right to left: `right` is the reversed array")
  func rightOrder() {
    let state = S.scene(
      [NavigationItem(id: "a", title: "A", rightBarButtonItems: ["first", "second", "third"])],
      items: [S.system("first", .done), S.system("second", .add), S.system("third", .edit)])
    #expect(LayoutResolver.resolve(state).navigationBar.rightIDs == ["third", "second", "first"])
    let placed = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 375)).navigationBar.right
    #expect(placed.geometry == ["third@261.0+30.0", "second@299.0+30.0", "first@337.0+30.0"])
  }

  @Test("R27 flexible spaces are skipped in the navigation bar; fixed spaces take their width")
  func spacesInNavigationBar() {
    let state = S.scene(
      [
        NavigationItem(
          id: "a", title: "A", leftBarButtonItems: ["flex", "l", "fixed", "m"], rightBarButtonItems: ["r", "flex2"])
      ],
      items: [
        S.system("flex", .flexibleSpace, width: 50), S.system("flex2", .flexibleSpace),
        S.system("fixed", .fixedSpace, width: 12),
        S.system("l", .add), S.system("m", .edit), S.system("r", .done),
      ])
    let plain = LayoutResolver.resolve(state).navigationBar
    #expect(plain.leftIDs == ["l", "fixed", "m"])
    #expect(plain.rightIDs == ["r"])
    let bar = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 375)).navigationBar
    // l at 8, then the fixed space with no gap on either side, then m.
    #expect(bar.left.geometry == ["l@8.0+30.0", "fixed@38.0+12.0", "m@50.0+30.0"])
    #expect(bar.right.geometry == ["r@337.0+30.0"])
    #expect(bar.overflow.isEmpty)
    // Narrow: the fixed space overflows on the left with what follows it; no flexible space ever does.
    let narrow = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 100)).navigationBar
    #expect(!narrow.overflowIDs.contains { $0.hasSuffix("flex") || $0.hasSuffix("flex2") })
  }

  @Test("R8 deeper items and their fields do not affect the layout")
  func deeperItemsIgnored() {
    let top = NavigationItem(id: "top", title: "Top", rightBarButtonItems: ["r"])
    let back = NavigationItem(id: "back", title: "Back item")
    let a = S.scene([NavigationItem(id: "deep", title: "Deep"), back, top], items: [S.titled("r"), S.titled("d")])
    let b = S.scene(
      [NavigationItem(id: "other", title: "Other", prompt: "P", leftBarButtonItems: ["d"]), back, top],
      items: [S.titled("r"), S.titled("d")])
    #expect(LayoutResolver.resolve(a).json == LayoutResolver.resolve(b).json)
  }

  @Test("R4 ids that name no bar button item are skipped defensively")
  func danglingIdsSkipped() {
    let state = S.scene(
      [NavigationItem(id: "a", leftBarButtonItems: ["gone", "x"], rightBarButtonItems: ["gone2"])],
      items: [S.titled("x")], toolbar: ["gone3", "x"])
    let layout = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 375))
    #expect(layout.navigationBar.leftIDs == ["x"])
    #expect(layout.navigationBar.rightIDs.isEmpty)
    #expect(layout.toolbar.itemIDs == ["x"])
  }

  // MARK: - Items

  @Test("R42 the kind of an item: customView, spaces, system, image, title, custom")
  func kinds() {
    let cases: [(BarButtonItem, LayoutItem.Kind)] = [
      (
        BarButtonItem(id: "a", title: "T", image: ImageRef(name: "i"), customView: CustomView(name: "v", width: 9)),
        .customView
      ),
      (S.system("b", .flexibleSpace), .flexibleSpace),
      (S.system("c", .fixedSpace), .fixedSpace),
      (S.system("d", .camera), .system),
      (BarButtonItem(id: "e", title: "Label", image: ImageRef(name: "i")), .image),
      (S.titled("f", "Title"), .title),
      (BarButtonItem(id: "g", title: ""), .title),
      (BarButtonItem(id: "h"), .custom),
    ]
    for (item, kind) in cases {
      #expect(LayoutItem.Kind(of: item) == kind, "\(item.id)")
      let state = S.scene([], items: [item], toolbar: [item.id])
      #expect(LayoutResolver.resolve(state).toolbar.items.first?.kind == kind, "\(item.id)")
    }
  }

  @Test("R42 an image item keeps its title as a label; an item carries style and enabled as set")
  func itemFields() {
    let item = BarButtonItem(
      id: "i", style: .done, title: "Label", image: ImageRef(name: "star", opaque: false, width: 20), enabled: false)
    let state = S.scene([NavigationItem(id: "a", rightBarButtonItems: ["i"])], items: [item])
    let shown = LayoutResolver.resolve(state).navigationBar.right
    #expect(
      shown == [
        LayoutItem(
          id: "i", kind: .image, title: "Label", image: ImageRef(name: "star", opaque: false, width: 20),
          systemItem: nil, style: .done, customView: nil, enabled: false, tint: .systemBlue)
      ])
  }

  @Test("R45 images are templates: an image item and an image back button carry the tint to draw them in")
  func imagesCarryTint() {
    var state = S.scene(
      [NavigationItem(id: "a", backBarButtonItem: "bbi"), NavigationItem(id: "b", rightBarButtonItems: ["i"])],
      items: [S.image("i"), BarButtonItem(id: "bbi", image: ImageRef(name: "arrow"))])
    state.navigationBar.appearance.tintColor = LayoutScenes.purple
    let bar = LayoutResolver.resolve(state).navigationBar
    #expect(bar.right.first?.tint == LayoutScenes.purple)
    #expect(bar.backButton?.image?.name == "arrow")
    #expect(bar.backButton?.tint == LayoutScenes.purple)
  }

  // MARK: - Toolbar

  @Test("R46 toolbar items are shown left to right, spaces included, independent of the stack")
  func toolbarOrder() {
    let items = [S.titled("a"), S.system("f", .flexibleSpace), S.system("x", .fixedSpace), S.titled("b")]
    let state = S.scene([], items: items, toolbar: ["b", "f", "a", "x"])
    let toolbar = LayoutResolver.resolve(state).toolbar
    #expect(toolbar.itemIDs == ["b", "f", "a", "x"])
    #expect(toolbar.overflow.isEmpty)
    #expect(toolbar.items.allSatisfy { $0.extent == nil })
  }

  // MARK: - Hidden bars and activation

  @Test("R57 a hidden bar is still fully resolved, geometry and overflow included")
  func hiddenBarsResolved() {
    var state = S.scene(
      [NavigationItem(id: "a"), NavigationItem(id: "b", title: "B", rightBarButtonItems: ["r"])],
      items: [S.titled("r"), S.titled("t")], toolbar: ["t"])
    let metrics = LayoutMetrics(width: 375)
    let shown = LayoutResolver.resolve(state, metrics: metrics)
    state.navigationBar.hidden = true
    state.toolbar.hidden = true
    let hidden = LayoutResolver.resolve(state, metrics: metrics)
    #expect(hidden.navigationBar.hidden && hidden.toolbar.hidden)
    var unhidden = hidden
    unhidden.navigationBar.hidden = false
    unhidden.toolbar.hidden = false
    #expect(unhidden == shown)
  }

  @Test("R58 activatable: shown, not overflowed, not a space, enabled, on a bar that is not hidden")
  func activatable() {
    var state = S.scene(
      [
        NavigationItem(id: "a", title: "A", backBarButtonItem: "bbi", rightBarButtonItems: ["deep"]),
        NavigationItem(
          id: "b", title: "B", leftItemsSupplementBackButton: true, leftBarButtonItems: ["l", "wide"],
          rightBarButtonItems: ["r", "off"]),
      ],
      items: [
        S.titled("l"), BarButtonItem(id: "wide", width: 400), S.titled("r"),
        BarButtonItem(id: "off", title: "Off", enabled: false), S.titled("deep"), S.titled("bbi"),
        S.system("flex", .flexibleSpace), S.system("fixed", .fixedSpace),
        BarButtonItem(id: "view", customView: CustomView(name: "v", width: 40)),
        S.titled("t"), S.titled("unused"),
      ], toolbar: ["t", "flex", "fixed", "view"])
    let metrics = LayoutMetrics(width: 375)
    var layout = LayoutResolver.resolve(state, metrics: metrics)
    #expect(layout.navigationBar.overflowIDs == ["left:wide"])
    let activatable = ["l", "r", "t", "view"]
    for id in ["l", "wide", "r", "off", "deep", "bbi", "flex", "fixed", "view", "t", "unused", "nope"] {
      #expect(layout.isActivatable(id) == activatable.contains(id), "\(id)")
    }
    // Without a width nothing overflows (R38), so `wide` is shown and activatable.
    #expect(LayoutResolver.resolve(state).isActivatable("wide"))
    // Hidden bars: none of their items.
    state.navigationBar.hidden = true
    layout = LayoutResolver.resolve(state, metrics: metrics)
    #expect(!layout.isActivatable("l") && !layout.isActivatable("r"))
    #expect(layout.isActivatable("t"))
    state.toolbar.hidden = true
    #expect(!LayoutResolver.resolve(state, metrics: metrics).isActivatable("t"))
  }

  @Test("R58 an item shown in a visible bar is activatable even when the other bar hiding it")
  func activatableThroughEitherBar() {
    var state = S.scene(
      [NavigationItem(id: "a", rightBarButtonItems: ["both"])], items: [S.titled("both")], toolbar: ["both"])
    state.toolbar.hidden = true
    #expect(LayoutResolver.resolve(state).isActivatable("both"))
    state.toolbar.hidden = false
    state.navigationBar.hidden = true
    #expect(LayoutResolver.resolve(state).isActivatable("both"))
  }

  // MARK: - Stationary items

  @Test("R29 an item on both the old and the new top item is never removed and re-added by the layout diff")
  func stationaryThroughPush() throws {
    let items = [S.system("x", .done), S.system("y", .add), S.titled("z")]
    let before = S.scene([NavigationItem(id: "a", title: "A", rightBarButtonItems: ["x"])], items: items)
    let after = try before.applying(
      .push(NavigationItem(id: "b", title: "B", rightBarButtonItems: ["x", "y"]), animated: true)
    ).state
    for metrics in [nil, LayoutMetrics(width: 375)] {
      let a = LayoutResolver.resolve(before, metrics: metrics).json
      let b = LayoutResolver.resolve(after, metrics: metrics).json
      let patch = PatchBuilder.diff(a, b)
      // X stays: nothing of `right` is removed and X is never added.
      #expect(!patch.contains { $0.name == "remove" && $0.path.description.hasPrefix("/navigationBar/right") })
      #expect(!patch.contains { $0.name == "add" && $0.value?["id"]?.stringValue == "x" })
      // Y is added at index 0 of `right` (on screen left of X).
      #expect(
        patch.contains {
          $0.name == "add" && $0.path.description == "/navigationBar/right/0" && $0.value?["id"]?.stringValue == "y"
        })
      #expect(try PatchApplier.apply(patch, to: a) == b)
      // And back again on pop.
      let popped = PatchBuilder.diff(b, a)
      #expect(!popped.contains { $0.name == "add" && $0.path.description.hasPrefix("/navigationBar/right") })
      #expect(popped.filter { $0.name == "remove" && $0.path.description.hasPrefix("/navigationBar/right") }.count == 1)
    }
  }
}
