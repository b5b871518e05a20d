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

  /// The navigation bar of `resolve(state, metrics:)`.
  static func resolveNavigationBar(_ state: SceneState, metrics: LayoutMetrics?) -> NavigationBarLayout {
    layOut(navigationBarDraft(state, metrics: metrics), metrics: metrics)
  }

  /// The navigation bar of `draft`, laid out when `metrics` has a width.
  static func layOut(_ draft: NavigationBarDraft, metrics: LayoutMetrics?) -> NavigationBarLayout {
    guard let width = metrics?.width.map(boundedWidth) else { return draft.layout }
    var draft = draft
    layOut(&draft, width: width)
    return draft.layout
  }

  /// The toolbar of `resolve(state, metrics:)`.
  static func resolveToolbar(_ state: SceneState, metrics: LayoutMetrics?) -> ToolbarLayout {
    layOut(toolbarDraft(state, metrics: metrics), metrics: metrics)
  }

  /// The toolbar of `state` before geometry.
  static func toolbarDraft(_ state: SceneState, metrics: LayoutMetrics?) -> ToolbarDraft {
    toolbarDraft(state, appearance: toolbarAppearance(state, metrics: metrics))
  }

  /// The toolbar of `draft`, laid out when `metrics` has a width.
  static func layOut(_ draft: ToolbarDraft, metrics: LayoutMetrics?) -> ToolbarLayout {
    guard let width = metrics?.width.map(boundedWidth) else { return draft.layout }
    var draft = draft
    layOut(&draft, width: width)
    return draft.layout
  }

  /// The navigation bar's resolved appearance, with or without a prompt shown (R22, R50).
  static func navigationBarAppearance(_ state: SceneState, prompt: Bool, metrics: LayoutMetrics?)
    -> ResolvedAppearance
  {
    let barMetrics: BarMetrics =
      switch (metrics?.compact ?? false, prompt) {
      case (false, false): .default
      case (true, false): .compact
      case (false, true): .defaultPrompt
      case (true, true): .compactPrompt
      }
    return resolveAppearance(
      .navigationBar, in: state, barMetrics: barMetrics, position: metrics?.navigationBarPosition ?? .top)
  }

  /// The toolbar's resolved appearance (R50).
  static func toolbarAppearance(_ state: SceneState, metrics: LayoutMetrics?) -> ResolvedAppearance {
    resolveAppearance(
      .toolbar, in: state, barMetrics: metrics?.compact ?? false ? .compact : .default,
      position: metrics?.toolbarPosition ?? .bottom)
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
    /// title change measures only the new title (`LayoutDocument`).
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

  /// The navigation bar of `state` before geometry: everything but the
  /// extents, the overflow and the centre's truncation.
  static func navigationBarDraft(_ state: SceneState, metrics: LayoutMetrics?) -> NavigationBarDraft {
    let bar = state.navigationBar
    let prompt = bar.topItem?.prompt.flatMap { $0.isEmpty ? nil : $0 }
    let appearance = navigationBarAppearance(state, prompt: prompt != nil, metrics: metrics)
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
    // Reserved once: `compactMap` grew its array item by item.
    var candidates: [Candidate] = []
    candidates.reserveCapacity(ids.count)
    for id in ids {
      if let item = state.barButtonItems[id] { candidates.append(candidate(item, in: state, bar: bar)) }
    }
    return candidates
  }

  /// `item` as shown in `bar`, with its width.
  static func candidate(_ item: BarButtonItem, in state: SceneState, bar: Bar) -> Candidate {
    Candidate(item: LayoutItem(item, tint: itemTint(item, in: bar, of: state)), width: WidthModel.width(of: item))
  }

  // MARK: - Toolbar content (R46)

  /// The toolbar before geometry.
  struct ToolbarDraft {
    var layout: ToolbarLayout
    /// Every item in array order, spaces included.
    var items: [Candidate]
  }

  static func toolbarDraft(_ state: SceneState, appearance: ResolvedAppearance) -> ToolbarDraft {
    let items = candidates(state.toolbar.items, in: state, bar: .toolbar)
    return ToolbarDraft(
      layout: ToolbarLayout(
        hidden: state.toolbar.hidden, items: items.map(\.item), overflow: [], appearance: appearance),
      items: items)
  }
}
