/// One scene's layout document at one metrics, as the scene changes: what a
/// subscription group of that width keeps.
///
/// After `update(to:change:)`, `layout` and `json` are exactly
/// `LayoutResolver.resolve(state, metrics:)` and its `json`, and the patch it
/// returns is exactly `PatchBuilder.diff` of the previous `json` and the new
/// one — those stay the reference, and seeded randomized tests hold this type
/// to them over every op kind — but its work follows what the ops touched
/// (`LayoutChange`), not the size of the scene:
/// - a bar the change does not name is not looked at;
/// - in a bar it names, only the named parts are resolved again: the centre,
///   the prompt and appearance, the back button, the items a bar button item
///   change shows up in (found by id in the bar's draft);
/// - when no width the bar's geometry reads changed (R32–R34: an item's width
///   or kind, the back button's or the title's width), the bar keeps its
///   geometry and each changed part is set in place, keeping its extent;
/// - otherwise, or when the bar's content itself changed (a push, a side
///   array, every tint), the bar is laid out again from its draft;
/// - the patch is written from the old and new values of the bars that
///   changed (`LayoutPatch`), encoding only the members that differ, and of
///   only the items set in place when the geometry stood; no JSON document is
///   kept: `json` is made when read.
public struct LayoutDocument: Sendable {
  /// What every version is resolved with.
  public let metrics: LayoutMetrics?
  /// The layout of the last state.
  public private(set) var layout: Layout
  /// `layout.json`, made when read.
  public var json: JSONValue { layout.json }
  /// The navigation bar of the last state before geometry.
  private(set) var navigationBarDraft: LayoutResolver.NavigationBarDraft
  /// The toolbar of the last state before geometry.
  private(set) var toolbarDraft: LayoutResolver.ToolbarDraft
  /// What the document holds in memory (`estimatedResidentBytes`): what the layout cache weighs it at.
  public private(set) var residentBytes = 0
  /// What `layout` alone holds (`Layout.residentBytes`), kept with `residentBytes`.
  public private(set) var layoutResidentBytes = 0

  /// The document of `state`.
  public init(_ state: SceneState, metrics: LayoutMetrics?) {
    self.metrics = metrics
    navigationBarDraft = LayoutResolver.navigationBarDraft(state, metrics: metrics)
    toolbarDraft = LayoutResolver.toolbarDraft(state, metrics: metrics)
    layout = Layout(
      navigationBar: LayoutResolver.layOut(navigationBarDraft, metrics: metrics),
      toolbar: LayoutResolver.layOut(toolbarDraft, metrics: metrics))
    weigh()
  }

  /// Makes `residentBytes` and `layoutResidentBytes` again, after a bar was laid out again.
  private mutating func weigh() {
    residentBytes = estimatedResidentBytes
    layoutResidentBytes = layout.residentBytes
  }

  /// Moves the document to `state`, which differs from the last one at most
  /// in what `change` names, and returns the patch from the previous `json`
  /// to the new one. `shared`: what the other widths of `state` resolved alike
  /// (made for `state` alone), or nil.
  @discardableResult
  public mutating func update(
    to state: SceneState, change: LayoutChange, shared: SharedResolution? = nil
  ) -> [PatchOperation] {
    let old = layout
    return step(to: state, change: change, shared: shared).patch(from: old, to: layout)
  }

  /// Moves the document to `state` as `update(to:change:shared:)` does, and returns the
  /// step, whose patch is written when asked for (`LayoutStep.patch(from:to:)`, from the
  /// layout before the step to `layout`) and which says when another width's step has
  /// the same patch (`LayoutStep.sharing`).
  public mutating func step(
    to state: SceneState, change: LayoutChange, shared: SharedResolution? = nil
  ) -> LayoutStep {
    let navigationBarRead =
      change.navigationBarContent || change.centre || change.prompt || change.backButton
      || change.navigationBarAppearance || change.navigationBarTints || change.navigationBarHidden
      || !change.barButtonItems.isEmpty
    let toolbarRead =
      change.toolbarItems || change.toolbarAppearance || change.toolbarTints || change.toolbarHidden
      || !change.barButtonItems.isEmpty
    guard navigationBarRead || toolbarRead else { return .nothing }
    let (parts, positions, placements) =
      navigationBarRead ? updateNavigationBar(to: state, change: change, shared: shared) : ([], nil, [])
    let (toolbarPositions, toolbarPlacements) =
      toolbarRead ? updateToolbar(to: state, change: change, shared: shared) : (nil, [])
    if parts == .all || (toolbarRead && toolbarPositions == nil) { weigh() }
    // A toolbar none of whose items was set in place, whose appearance and hidden flag did
    // not change either, is as it was: not diffed.
    let toolbarUnchanged =
      toolbarPositions.map { $0.first.isEmpty && $0.overflow.isEmpty } == true && !change.toolbarAppearance
      && !change.toolbarHidden
    // Shareable (`LayoutStep.Sharing`): no geometry laid out again, no appearance changed.
    let navigationBarShared =
      !navigationBarRead || (positions != nil && parts.isDisjoint(with: [.appearance, .prompt]))
    let toolbarShared = !toolbarRead || toolbarUnchanged || (toolbarPositions != nil && !change.toolbarAppearance)
    let sharing =
      navigationBarShared && toolbarShared
      ? LayoutStep.Sharing(
        parts: navigationBarRead ? parts.rawValue : LayoutStep.Sharing.unread, navigationBar: placements,
        toolbar: toolbarRead && !toolbarUnchanged ? toolbarPlacements : nil) : nil
    return LayoutStep(
      sharing: sharing, navigationBar: navigationBarRead, parts: parts, positions: positions,
      toolbar: toolbarRead && !toolbarUnchanged, toolbarPositions: toolbarPositions)
  }
}

// MARK: - The navigation bar

extension LayoutDocument {
  /// Moves the navigation bar to `state`; returns the parts that may have changed and,
  /// when the geometry stood, where items were set in place (nil: laid out again) and
  /// each edited item's placement (`LayoutStep.Sharing.code(of:)`).
  private mutating func updateNavigationBar(
    to state: SceneState, change: LayoutChange, shared: SharedResolution?
  ) -> (LayoutPatch.NavigationBarParts, LayoutPatch.Positions?, [Int]) {
    // Every tint is every item: resolving the bar again is no more work than finding them.
    guard !change.navigationBarContent && !change.navigationBarTints,
      let edits = editNavigationBarDraft(to: state, change: change, shared: shared)
    else {
      navigationBarDraft = LayoutResolver.navigationBarDraft(state, metrics: metrics)
      layout.navigationBar = LayoutResolver.layOut(navigationBarDraft, metrics: metrics)
      return (.all, nil, [])
    }
    if edits.geometry {
      layout.navigationBar = LayoutResolver.layOut(navigationBarDraft, metrics: metrics)
      return (.all, nil, [])
    }
    // The geometry stands: each changed part is set in place, keeping its extent.
    var parts: LayoutPatch.NavigationBarParts = []
    if change.navigationBarHidden {
      layout.navigationBar.hidden = navigationBarDraft.layout.hidden
      parts.insert(.hidden)
    }
    if change.prompt || change.navigationBarAppearance {
      layout.navigationBar.prompt = navigationBarDraft.layout.prompt
      layout.navigationBar.appearance = navigationBarDraft.layout.appearance
      parts.formUnion([.prompt, .appearance])
    }
    if change.centre, let centre = navigationBarDraft.layout.centre {
      layout.navigationBar.centre?.kind = centre.kind
      layout.navigationBar.centre?.title = centre.title
      layout.navigationBar.centre?.titleView = centre.titleView
      parts.insert(.centre)
    }
    if edits.backButton, let backButton = navigationBarDraft.layout.backButton {
      let extent = layout.navigationBar.backButton?.extent
      layout.navigationBar.backButton = backButton
      layout.navigationBar.backButton?.extent = extent
      parts.insert(.backButton)
    }
    if !edits.items.isEmpty { parts.insert(.items) }
    var positions = LayoutPatch.Positions()
    var placements: [Int] = []
    placements.reserveCapacity(edits.items.count)
    for (side, index) in edits.items {
      let item = (side == .left ? navigationBarDraft.left[index] : navigationBarDraft.right[index]).item
      let placement = Self.placement(of: index, side: side, in: navigationBarDraft, laidOut: layout.navigationBar)
      placements.append(LayoutStep.Sharing.code(of: placement))
      switch placement {
      case .left(let position):
        layout.navigationBar.left[position].take(item)
        positions.first.append(position)
      case .right(let position):
        layout.navigationBar.right[position].take(item)
        positions.right.append(position)
      case .overflow(let position):
        layout.navigationBar.overflow[position] = OverflowedItem(item, side: side)
        positions.overflow.append(position)
      case .dropped: break
      }
    }
    return (parts, positions, placements)
  }

  /// What `editNavigationBarDraft` changed: whether a width the geometry
  /// reads did, whether the back button's content did, and the items whose
  /// content did (side, index in the draft's array of that side).
  private struct NavigationBarEdits {
    var geometry = false
    var backButton = false
    var items: [(side: BarSide, index: Int)] = []
  }

  /// Applies `change` to the navigation bar's draft, part by part; nil when
  /// the draft's arrays themselves change (an item became or stopped being a
  /// flexible space, which the navigation bar leaves out, R27): then the
  /// draft must be made again.
  private mutating func editNavigationBarDraft(
    to state: SceneState, change: LayoutChange, shared: SharedResolution?
  ) -> NavigationBarEdits? {
    var edits = NavigationBarEdits()
    let bar = state.navigationBar
    navigationBarDraft.layout.hidden = bar.hidden
    if change.prompt || change.navigationBarAppearance {
      // An empty stack shows no prompt but still an appearance.
      let prompt = bar.topItem?.prompt.flatMap { $0.isEmpty ? nil : $0 }
      navigationBarDraft.layout.prompt = prompt
      navigationBarDraft.layout.appearance = LayoutResolver.navigationBarAppearance(
        state, prompt: prompt != nil, metrics: metrics)
    }
    guard let top = bar.topItem else { return edits }
    if change.centre {
      let centre = LayoutResolver.centre(of: top, hasLeftItems: !top.leftBarButtonItems.isEmpty)
      let width = WidthModel.titleWidth(centre)
      navigationBarDraft.layout.centre = centre
      if width != navigationBarDraft.titleWidth { edits.geometry = true }
      navigationBarDraft.titleWidth = width
    }
    let backButtonItem = navigationBarDraft.layout.backButton?.item
    if change.backButton || change.barButtonItems.contains(where: { $0 == backButtonItem }),
      navigationBarDraft.layout.backButton != nil, let back = bar.backItem
    {
      let backButton = LayoutResolver.backButton(from: back, in: state)
      let width = WidthModel.backButtonWidth(title: backButton.title, showsImage: backButton.image != nil)
      navigationBarDraft.layout.backButton = backButton
      if width != navigationBarDraft.backWidth { edits.geometry = true }
      navigationBarDraft.backWidth = width
      edits.backButton = true
    }
    for id in change.barButtonItems {
      for side in BarSide.allCases where top[side].contains(id) {
        // Read in place: a copy of the draft's array would be copied again when written.
        let index =
          side == .left
          ? navigationBarDraft.left.firstIndex { $0.item.id == id }
          : navigationBarDraft.right.firstIndex { $0.item.id == id }
        guard
          let candidate = shared?.candidate(id, in: state, bar: .navigationBar)
            ?? state.barButtonItems[id].map({ LayoutResolver.candidate($0, in: state, bar: .navigationBar) })
        else { continue }
        let flexible = candidate.item.kind == .flexibleSpace
        // In the state's array but not in the draft's: a flexible space, left out (R27).
        guard let index, !flexible else {
          if index == nil && flexible { continue }
          return nil
        }
        let (width, kind) =
          side == .left
          ? (navigationBarDraft.left[index].width, navigationBarDraft.left[index].item.kind)
          : (navigationBarDraft.right[index].width, navigationBarDraft.right[index].item.kind)
        if candidate.width != width || candidate.item.kind != kind { edits.geometry = true }
        // The draft's own layout lists the items without geometry, the right side reversed (R28).
        if side == .left {
          navigationBarDraft.left[index] = candidate
          navigationBarDraft.layout.left[index] = candidate.item
        } else {
          navigationBarDraft.right[index] = candidate
          navigationBarDraft.layout.right[navigationBarDraft.right.count - 1 - index] = candidate.item
        }
        edits.items.append((side, index))
      }
    }
    return edits
  }

  /// Where the laid-out bar shows the draft's item `index` of `side`.
  enum Placement {
    case left(Int)
    case right(Int)
    case overflow(Int)
    /// A space that did not fit: nothing is shown for it (R37).
    case dropped
  }

  /// Where `laidOut`, the layout of `draft`, shows the item `index` of
  /// `side`: the items placed on a side are a prefix of its draft array (the
  /// right side's shown right to left, R28), the rest of it, spaces left out,
  /// overflows, the left side's first (R37).
  static func placement(
    of index: Int, side: BarSide, in draft: LayoutResolver.NavigationBarDraft, laidOut: NavigationBarLayout
  ) -> Placement {
    let candidates = side == .left ? draft.left : draft.right
    let placed = side == .left ? laidOut.left.count : laidOut.right.count
    if index < placed { return side == .left ? .left(index) : .right(placed - 1 - index) }
    if candidates[index].item.kind.isSpace { return .dropped }
    var position = candidates[placed..<index].count { !$0.item.kind.isSpace }
    if side == .right { position += draft.left[laidOut.left.count...].count { !$0.item.kind.isSpace } }
    return .overflow(position)
  }
}

// MARK: - The toolbar

extension LayoutDocument {
  /// Moves the toolbar to `state`; returns where items were set in place, nil when it was
  /// laid out again, and each edited item's placement (`LayoutStep.Sharing.code(of:)`).
  private mutating func updateToolbar(
    to state: SceneState, change: LayoutChange, shared: SharedResolution?
  ) -> (LayoutPatch.Positions?, [Int]) {
    // A new item array, or every tint: resolving the bar again is no more work than editing it.
    guard !change.toolbarItems && !change.toolbarTints else {
      toolbarDraft = LayoutResolver.toolbarDraft(state, metrics: metrics)
      layout.toolbar = LayoutResolver.layOut(toolbarDraft, metrics: metrics)
      return (nil, [])
    }
    toolbarDraft.layout.hidden = state.toolbar.hidden
    if change.toolbarAppearance {
      toolbarDraft.layout.appearance = LayoutResolver.toolbarAppearance(state, metrics: metrics)
    }
    var geometry = false
    var edited: [Int] = []
    for id in change.barButtonItems {
      guard let index = toolbarDraft.items.firstIndex(where: { $0.item.id == id }),
        let candidate = shared?.candidate(id, in: state, bar: .toolbar)
          ?? state.barButtonItems[id].map({ LayoutResolver.candidate($0, in: state, bar: .toolbar) })
      else { continue }
      if candidate.width != toolbarDraft.items[index].width
        || candidate.item.kind != toolbarDraft.items[index].item.kind
      {
        geometry = true
      }
      toolbarDraft.items[index] = candidate
      toolbarDraft.layout.items[index] = candidate.item
      edited.append(index)
    }
    if geometry {
      layout.toolbar = LayoutResolver.layOut(toolbarDraft, metrics: metrics)
      return (nil, [])
    }
    // The geometry stands: each changed part is set in place, keeping its extent.
    layout.toolbar.hidden = toolbarDraft.layout.hidden
    if change.toolbarAppearance { layout.toolbar.appearance = toolbarDraft.layout.appearance }
    let placed = layout.toolbar.items.count
    var positions = LayoutPatch.Positions()
    var placements: [Int] = []
    placements.reserveCapacity(edited.count)
    for index in edited {
      let item = toolbarDraft.items[index].item
      if index < placed {
        layout.toolbar.items[index].take(item)
        positions.first.append(index)
        placements.append(LayoutStep.Sharing.code(of: .left(index)))
      } else if !item.kind.isSpace {
        // Overflowed spaces are dropped (R47): the others keep their order.
        let position = toolbarDraft.items[placed..<index].count { !$0.item.kind.isSpace }
        layout.toolbar.overflow[position] = item
        positions.overflow.append(position)
        placements.append(LayoutStep.Sharing.code(of: .overflow(position)))
      } else {
        placements.append(LayoutStep.Sharing.code(of: .dropped))
      }
    }
    return (positions, placements)
  }
}

extension LayoutItem {
  /// Takes `item`'s content, keeping this item's extent.
  mutating func take(_ item: LayoutItem) {
    let extent = self.extent
    self = item
    self.extent = extent
  }
}
