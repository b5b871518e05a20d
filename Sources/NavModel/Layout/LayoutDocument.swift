/// One scene's layout document as the scene changes, for whoever resolves
/// and diffs every version (a subscriber group).
///
/// After `update(to:)`, `layout` and `json` are exactly
/// `LayoutResolver.resolve(state, metrics:)` and its `json`, and the patch it
/// returns is exactly `PatchBuilder.diff` of the previous `json` and the new
/// one — those stay the reference, and a seeded randomized test holds this
/// type to them — but it does less work:
/// - a bar whose inputs did not change is not resolved again: a title
///   change re-lays out the navigation bar and leaves the toolbar alone;
/// - when only the top item's title changed (found without copying the
///   state, `LayoutResolver.onlyTopTitleChanged`), the navigation bar keeps
///   its resolved items, back button and appearance and redoes only the
///   centre and the geometry, and not even the geometry when the new title
///   takes the width the old one did (`LayoutResolver.retitle`): then the
///   title is set in place in the layout alone, and the patch is its one
///   `replace` (`retitle`); the document's JSON takes the title only when
///   it is next read or reused (`titleUnsettled`); when nothing but the
///   centre moved, only the centre's JSON is written (`updateCentre`);
/// - a part of the document whose resolved value did not change keeps the
///   previous document's JSON (`Layout.write(reusing:)`), so only the
///   changed parts are encoded;
/// - the patch is written from the parts that were re-encoded, not found by
///   walking both documents.
public struct LayoutDocument: Sendable {
  /// What every version is resolved with.
  public let metrics: LayoutMetrics?
  /// The layout of the last state.
  public private(set) var layout: Layout
  /// `layout.json`: `encoded`, with the centre's title set when `titleUnsettled`.
  public var json: JSONValue {
    var json = encoded
    if titleUnsettled { settleTitle(in: &json) }
    return json
  }
  /// `layout.json` but, when `titleUnsettled`, for the centre's title: the
  /// JSON the layout was last encoded to, for the next version to reuse.
  private var encoded: JSONValue
  /// Whether title changes since `encoded` was last written left its centre's
  /// `title` behind `layout`'s. The title fast path only sets this: setting the
  /// member in `encoded` hashed each key on the path and copied the centre
  /// object, ~1,800 instructions a title change (callgrind, `navbench --engine
  /// --scene title`), now paid once by the next version that is not a title
  /// change alone, whatever the number of title changes before it.
  private var titleUnsettled = false
  /// What of the last state each bar was resolved from.
  private var navigationBarInputs: SceneState
  private var toolbarInputs: SceneState
  /// The navigation bar of `navigationBarInputs` before geometry.
  private var navigationBarDraft: LayoutResolver.NavigationBarDraft

  /// The document of `state`.
  public init(_ state: SceneState, metrics: LayoutMetrics?) {
    self.metrics = metrics
    navigationBarInputs = LayoutResolver.navigationBarInputs(of: state)
    toolbarInputs = LayoutResolver.toolbarInputs(of: state)
    navigationBarDraft = LayoutResolver.navigationBarDraft(navigationBarInputs, metrics: metrics)
    layout = Layout(
      navigationBar: LayoutResolver.layOut(navigationBarDraft, metrics: metrics),
      toolbar: LayoutResolver.resolveToolbar(toolbarInputs, metrics: metrics))
    encoded = layout.json
  }

  /// Moves the document to `state`, re-resolving and re-encoding only what
  /// changed, and returns the patch from the previous `json` to the new one.
  @discardableResult
  public mutating func update(to state: SceneState) -> [PatchOperation] {
    if LayoutResolver.onlyTopTitleChanged(
      navigationBarInputs: navigationBarInputs, toolbarInputs: toolbarInputs, to: state)
    {
      return retitle(state.navigationBar.topItem?.title)
    }
    var next = layout
    let navigationBarInputs = LayoutResolver.navigationBarInputs(of: state)
    let navigationBarResolved = navigationBarInputs != self.navigationBarInputs
    if navigationBarResolved {
      navigationBarDraft = LayoutResolver.navigationBarDraft(navigationBarInputs, metrics: metrics)
      next.navigationBar = LayoutResolver.layOut(navigationBarDraft, metrics: metrics)
      self.navigationBarInputs = navigationBarInputs
    }
    let toolbarInputs = LayoutResolver.toolbarInputs(of: state)
    let toolbarResolved = toolbarInputs != self.toolbarInputs
    if toolbarResolved {
      next.toolbar = LayoutResolver.resolveToolbar(toolbarInputs, metrics: metrics)
      self.toolbarInputs = toolbarInputs
    }
    if !navigationBarResolved && !toolbarResolved { return [] }
    return move(to: next, toolbarResolved: toolbarResolved)
  }

  /// Where a title change writes: the `title` member of the navigation bar's centre.
  private static let centreTitle = JSONPointer(tokens: ["navigationBar", "centre", "title"])

  /// Moves the document to the state of its inputs with the top item's title
  /// now `title`, all else unchanged (`LayoutResolver.onlyTopTitleChanged`).
  /// Everything is changed in place; when the title keeps its width, the
  /// layout's one change is the centre's title, and the patch is the one
  /// `replace` of its member that `PatchBuilder.diff` finds.
  private mutating func retitle(_ title: String?) -> [PatchOperation] {
    navigationBarInputs.navigationBar.items[navigationBarInputs.navigationBar.items.count - 1].title = title
    // `case .some`, not `!= nil`, which copied the centre out of its optional first.
    if LayoutResolver.retitle(&navigationBarDraft, title: title), case .some = layout.navigationBar.centre {
      layout.navigationBar.centre?.title = title
      titleUnsettled = true
      return [.replace(path: Self.centreTitle, value: title.map(JSONValue.string) ?? .null)]
    }
    var next = layout
    next.navigationBar = LayoutResolver.layOut(navigationBarDraft, metrics: metrics)
    return move(to: next, toolbarResolved: false)
  }

  /// Sets the centre's `title` in `json`, a layout's JSON, to `layout`'s.
  private func settleTitle(in json: inout JSONValue) {
    json.replaceMember(
      at: Self.centreTitle.tokens[...], with: layout.navigationBar.centre?.title.map(JSONValue.string) ?? .null)
  }

  /// Moves the document to `next`, whose bars are re-resolved (the toolbar
  /// when `toolbarResolved`), and returns the patch.
  private mutating func move(to next: Layout, toolbarResolved: Bool) -> [PatchOperation] {
    if titleUnsettled {
      settleTitle(in: &encoded)
      titleUnsettled = false
    }
    var patch: [PatchOperation] = []
    if !toolbarResolved, layout.navigationBar.differsOnlyInCentre(from: next.navigationBar),
      updateCentre(to: next.navigationBar, patch: &patch)
    {
      return patch
    }
    let written = next.write(reusing: Encoded(value: layout, json: encoded))
    written.patch(at: [], into: &patch)
    encoded = written.json
    layout = next
    return patch
  }

  /// Moves the document to `navigationBar`, which differs from the current
  /// one in its centre alone, as after most title changes, and says whether
  /// it did (not when either has no centre): only the centre object is
  /// written (from the previous one) and put in place, and the patch names
  /// its changed members. Exactly what the general path gives, in fewer steps.
  private mutating func updateCentre(to navigationBar: NavigationBarLayout, patch: inout [PatchOperation]) -> Bool {
    guard let centre = navigationBar.centre, let previous = layout.navigationBar.centre,
      let previousJSON = encoded["navigationBar"]?["centre"]
    else { return false }
    let written = centre.write(reusing: Encoded(value: previous, json: previousJSON))
    encoded.replaceMember(at: ["navigationBar", "centre"], with: written.json)
    layout.navigationBar = navigationBar
    written.patch(at: ["navigationBar", "centre"], into: &patch)
    return true
  }
}

extension NavigationBarLayout {
  /// Whether `other` is this bar but for its centre.
  func differsOnlyInCentre(from other: NavigationBarLayout) -> Bool {
    var elsewhere = other
    elsewhere.centre = centre
    return elsewhere == self
  }
}
