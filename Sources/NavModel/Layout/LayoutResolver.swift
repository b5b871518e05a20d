/// Turns a scene's state into the layout a front end draws (SEMANTICS
/// R19–R57): the back button, left items, centre, right items, prompt and
/// toolbar, each bar's resolved appearance and, with a width, the geometry
/// and overflow.
///
/// Pure and total: the same state and metrics always give the same layout,
/// and no state crashes it. Ids that name no bar button item (which the
/// applier never produces, R4) are skipped rather than trapped on.
public enum LayoutResolver {
  /// The resolved layout of `state`; with `metrics`, also where everything is
  /// drawn and what overflows (R35–R38, R47).
  public static func resolve(_ state: SceneState, metrics: LayoutMetrics? = nil) -> Layout {
    Layout(
      navigationBar: resolveNavigationBar(state, metrics: metrics), toolbar: resolveToolbar(state, metrics: metrics))
  }

  /// The navigation bar of `resolve(state, metrics:)`. It reads only what
  /// `navigationBarInputs(of:)` keeps of the state.
  static func resolveNavigationBar(_ state: SceneState, metrics: LayoutMetrics?) -> NavigationBarLayout {
    layOut(navigationBarDraft(state, metrics: metrics), metrics: metrics)
  }

  /// The navigation bar of `state` before geometry: everything but the
  /// extents, the overflow and the centre's truncation.
  static func navigationBarDraft(_ state: SceneState, metrics: LayoutMetrics?) -> NavigationBarDraft {
    navigationBarDraft(state, compact: metrics?.compact ?? false, position: metrics?.navigationBarPosition ?? .top)
  }

  /// The navigation bar of `draft`, laid out when `metrics` has a width.
  static func layOut(_ draft: NavigationBarDraft, metrics: LayoutMetrics?) -> NavigationBarLayout {
    guard let width = metrics?.width.map(boundedWidth) else { return draft.layout }
    var draft = draft
    layOut(&draft, width: width)
    return draft.layout
  }

  /// Whether `state` differs from the state the two inputs were taken from
  /// (`navigationBarInputs(of:)`, `toolbarInputs(of:)`) in the top item's
  /// title alone, of all that either bar reads: the one change that leaves
  /// the draft as it was but for the centre's title (`retitle`), since the
  /// title is read nowhere else (R19–R28).
  ///
  /// What `navigationBarInputs(of: state)` and `toolbarInputs(of: state)`
  /// compared with the inputs would say, but read part by part, so neither
  /// input is made of `state`: those copies of the whole state, and the
  /// comparisons of its blanked parts, cost more than the rest of a title
  /// change. So it names every stored property of `SceneState` and
  /// `NavigationBarState` (a test holds it to their count); the toolbar
  /// inputs keep the shared parts (items, tints, appearance defaults) as
  /// current as the navigation bar's do.
  static func onlyTopTitleChanged(
    navigationBarInputs: SceneState, toolbarInputs: SceneState, to state: SceneState
  ) -> Bool {
    let old = navigationBarInputs.navigationBar
    let new = state.navigationBar
    guard !new.items.isEmpty, old.items.count == min(new.items.count, 2) else { return false }
    // The top and back items read in place: comparing the two `backItem`
    // optionals copied each twice (~1,600 instructions), and a copy of the
    // old top item with the new title, compared whole, cost ~700 more.
    let top = old.items.count - 1
    let newTop = new.items.count - 1
    guard old.items[top].title != new.items[newTop].title, old.items[top].equalsIgnoringTitle(new.items[newTop])
    else { return false }
    if old.items.count == 2, old.items[0] != new.items[new.items.count - 2] { return false }
    return old.hidden == new.hidden
      && old.appearance == new.appearance && state.toolbar == toolbarInputs.toolbar
      && state.barButtonItems == toolbarInputs.barButtonItems && state.tintColor == toolbarInputs.tintColor
      && state.appearanceDefaults == toolbarInputs.appearanceDefaults
  }

  /// Sets the centre's title in `draft` to `title`, what `navigationBarDraft`
  /// gives when nothing else changed (`onlyTopTitleChanged`), and says
  /// whether the title's width `t` is as it was (R33): the geometry
  /// (R35–R37) depends on the title only through `t`, so a laid-out centre
  /// keeps its extent and truncation. When it is not (or there is no
  /// centre), the bar must be laid out again.
  static func retitle(_ draft: inout NavigationBarDraft, title: String?) -> Bool {
    // Through optional chaining, the centre is changed and measured in place (nil: no
    // centre): `!= nil` and `map` on the optional each copied it (~360 instructions a
    // title change).
    draft.layout.centre?.title = title
    guard let width = draft.layout.centre?.titleWidth else { return false }
    defer { draft.titleWidth = width }
    return width == draft.titleWidth
  }

  /// The toolbar of `resolve(state, metrics:)`. It reads only what
  /// `toolbarInputs(of:)` keeps of the state.
  static func resolveToolbar(_ state: SceneState, metrics: LayoutMetrics?) -> ToolbarLayout {
    var draft = toolbarDraft(state, compact: metrics?.compact ?? false, position: metrics?.toolbarPosition ?? .bottom)
    if let width = metrics?.width.map(boundedWidth) { layOut(&draft, width: width) }
    return draft.layout
  }

  /// The part of `state` the navigation bar's layout reads: the top and back
  /// items (R19–R25), the bar's `hidden` and appearance, the bar button items
  /// and the tints (R48–R56). Not the toolbar, nor the items deeper in the stack.
  static func navigationBarInputs(of state: SceneState) -> SceneState {
    var inputs = state
    inputs.toolbar = ToolbarState()
    let deeper = state.navigationBar.items.count - 2
    if deeper > 0 { inputs.navigationBar.items.removeFirst(deeper) }
    return inputs
  }

  /// The part of `state` the toolbar's layout reads: all but the navigation bar.
  static func toolbarInputs(of state: SceneState) -> SceneState {
    var inputs = state
    inputs.navigationBar = NavigationBarState()
    return inputs
  }

  /// R7 bounds `W` to 0…10000; the engine validates, this only keeps the
  /// arithmetic finite if it did not.
  static func boundedWidth(_ width: Double) -> Double {
    width.isNaN ? 0 : min(max(width, 0), 10_000)
  }

  // MARK: - Navigation bar content (R19–R28)

  /// The navigation bar before geometry: what is shown, in what order, with
  /// the widths the layout pass needs.
  struct NavigationBarDraft {
    var layout: NavigationBarLayout
    /// Back button width (R33), when shown.
    var backWidth: Double?
    /// The title width `t` (R33) of the centre; 0 without one. Kept so a
    /// title change measures only the new title (`retitle`).
    var titleWidth: Double
    /// Left items in array order, flexible spaces removed (R27).
    var left: [Candidate]
    /// Right items in array order (rightmost first), flexible spaces removed (R27).
    var right: [Candidate]
  }

  /// An item that may be shown, with its width `w(i)` (R32); nil for a flexible space.
  struct Candidate {
    var item: LayoutItem
    var width: Double?
  }

  static func navigationBarDraft(_ state: SceneState, compact: Bool, position: BarPosition) -> NavigationBarDraft {
    let bar = state.navigationBar
    let prompt = bar.topItem?.prompt.flatMap { $0.isEmpty ? nil : $0 }
    let barMetrics: BarMetrics =
      switch (compact, prompt != nil) {
      case (false, false): .default
      case (true, false): .compact
      case (false, true): .defaultPrompt
      case (true, true): .compactPrompt
      }
    let appearance = resolveAppearance(.navigationBar, in: state, barMetrics: barMetrics, position: position)
    var draft = NavigationBarDraft(
      layout: NavigationBarLayout(
        hidden: bar.hidden, topItem: nil, prompt: nil, backButton: nil, left: [], centre: nil, right: [],
        overflow: [], appearance: appearance),
      backWidth: nil, titleWidth: 0, left: [], right: [])
    guard let top = bar.topItem else { return draft }

    let leftIDs = top.leftBarButtonItems.filter { state.barButtonItems.contains($0) }
    draft.layout.topItem = top.id
    draft.layout.prompt = prompt
    draft.left = candidates(leftIDs, in: state, bar: .navigationBar).filter { $0.item.kind != .flexibleSpace }
    draft.right = candidates(top.rightBarButtonItems, in: state, bar: .navigationBar).filter {
      $0.item.kind != .flexibleSpace
    }
    draft.layout.left = draft.left.map(\.item)
    draft.layout.right = draft.right.reversed().map(\.item)
    let centre = centre(of: top, hasLeftItems: !leftIDs.isEmpty)
    draft.layout.centre = centre
    draft.titleWidth = WidthModel.titleWidth(centre)

    let showsBackButton = !top.hidesBackButton && (leftIDs.isEmpty || top.leftItemsSupplementBackButton)
    if let back = bar.backItem, showsBackButton {
      let backButton = backButton(from: back, in: state)
      draft.layout.backButton = backButton
      draft.backWidth = WidthModel.backButtonWidth(title: backButton.title, showsImage: backButton.image != nil)
    }
    return draft
  }

  /// R19–R21: the title view unless the item has left items (the state's
  /// array, whatever is drawn, R20), else the title, verbatim.
  static func centre(of top: NavigationItem, hasLeftItems: Bool) -> CentreLayout {
    if let titleView = top.titleView, !hasLeftItems {
      return CentreLayout(kind: .titleView, title: top.title, titleView: titleView)
    }
    return CentreLayout(kind: .title, title: top.title, titleView: nil)
  }

  /// R24, R25: the content comes from the back item, never from the top item.
  static func backButton(from back: NavigationItem, in state: SceneState) -> BackButtonLayout {
    let barButtonItem = back.backBarButtonItem.flatMap { state.barButtonItems[$0] }
    let title: String?
    let image: ImageRef?
    if let barButtonItem, barButtonItem.title != nil || barButtonItem.image != nil {
      title = barButtonItem.title
      image = barButtonItem.image
    } else {
      title = back.title ?? "Back"
      image = nil
    }
    return BackButtonLayout(
      sourceItem: back.id, item: barButtonItem?.id, title: title, image: image,
      enabled: barButtonItem?.enabled ?? true, tint: itemTint(barButtonItem, in: .navigationBar, of: state))
  }

  /// The bar button items named by `ids`, as shown in `bar`; unknown ids are skipped.
  static func candidates(_ ids: [String], in state: SceneState, bar: Bar) -> [Candidate] {
    ids.compactMap { id in
      guard let item = state.barButtonItems[id] else { return nil }
      return Candidate(
        item: LayoutItem(item, tint: itemTint(item, in: bar, of: state)), width: WidthModel.width(of: item))
    }
  }

  // MARK: - Toolbar content (R46)

  /// The toolbar before geometry.
  struct ToolbarDraft {
    var layout: ToolbarLayout
    /// Every item in array order, spaces included.
    var items: [Candidate]
  }

  static func toolbarDraft(_ state: SceneState, compact: Bool, position: BarPosition) -> ToolbarDraft {
    let appearance = resolveAppearance(
      .toolbar, in: state, barMetrics: compact ? .compact : .default, position: position)
    let items = candidates(state.toolbar.items, in: state, bar: .toolbar)
    return ToolbarDraft(
      layout: ToolbarLayout(
        hidden: state.toolbar.hidden, items: items.map(\.item), overflow: [], appearance: appearance),
      items: items)
  }
}
