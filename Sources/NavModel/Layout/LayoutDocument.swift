/// One scene's layout document as the scene changes, for whoever resolves
/// and diffs every version (a subscriber group).
///
/// After `update(to:)`, `layout` and `json` are exactly
/// `LayoutResolver.resolve(state, metrics:)` and its `json` — that pair stays
/// the reference, and a seeded randomized test holds this type to it — but
/// it does less work:
/// - a bar whose inputs did not change is not resolved again: a title
///   change re-lays out the navigation bar and leaves the toolbar alone;
/// - a part of the document whose resolved value did not change keeps the
///   previous document's JSON (`Layout.json(reusing:)`), so only the
///   changed parts are encoded, and `PatchBuilder.diff` between the two
///   documents finds the rest equal by identity.
public struct LayoutDocument: Sendable {
  /// What every version is resolved with.
  public let metrics: LayoutMetrics?
  /// The layout of the last state.
  public private(set) var layout: Layout
  /// `layout.json`.
  public private(set) var json: JSONValue
  /// What of the last state each bar was resolved from.
  private var navigationBarInputs: SceneState
  private var toolbarInputs: SceneState

  /// The document of `state`.
  public init(_ state: SceneState, metrics: LayoutMetrics?) {
    self.metrics = metrics
    navigationBarInputs = LayoutResolver.navigationBarInputs(of: state)
    toolbarInputs = LayoutResolver.toolbarInputs(of: state)
    layout = Layout(
      navigationBar: LayoutResolver.resolveNavigationBar(navigationBarInputs, metrics: metrics),
      toolbar: LayoutResolver.resolveToolbar(toolbarInputs, metrics: metrics))
    json = layout.json
  }

  /// Moves the document to `state`, re-resolving and re-encoding only what changed.
  public mutating func update(to state: SceneState) {
    var next = layout
    let navigationBarInputs = LayoutResolver.navigationBarInputs(of: state)
    if navigationBarInputs != self.navigationBarInputs {
      next.navigationBar = LayoutResolver.resolveNavigationBar(navigationBarInputs, metrics: metrics)
      self.navigationBarInputs = navigationBarInputs
    }
    let toolbarInputs = LayoutResolver.toolbarInputs(of: state)
    if toolbarInputs != self.toolbarInputs {
      next.toolbar = LayoutResolver.resolveToolbar(toolbarInputs, metrics: metrics)
      self.toolbarInputs = toolbarInputs
    }
    json = next.json(reusing: Encoded(value: layout, json: json))
    layout = next
  }
}
