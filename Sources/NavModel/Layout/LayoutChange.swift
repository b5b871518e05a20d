/// What a run of applied ops may have changed of a scene's layout, the same
/// for every width: made once per update from the ops alone (`init(ops:in:)`),
/// then read by each width's `LayoutDocument`, which resolves again only the
/// parts it names (SEMANTICS R19–R57).
///
/// It may say more than changed, never less: a part it does not name keeps
/// its resolved value, so an op kind missing here would leave a layout stale.
/// `LayoutChange.everything` names every part.
public struct LayoutChange: Sendable, Hashable {
  /// The navigation bar's content is resolved again from the state: the stack
  /// changed (push, pop, popTo, setStack: a new top or back item), or the top
  /// item's side arrays or its back-button flags (R17, R18, R23).
  public var navigationBarContent = false
  /// The top item's title or title view: the centre (R19–R21).
  public var centre = false
  /// The top item's prompt: the prompt and the bar metrics of the appearance (R22, R50).
  public var prompt = false
  /// The back item's title or `backBarButtonItem`: the back button (R24, R25).
  public var backButton = false
  /// The navigation bar's appearance, its own or the defaults' (R48–R55).
  public var navigationBarAppearance = false
  /// Every tint of the navigation bar: the bar's, its items' and the back button's (R56).
  public var navigationBarTints = false
  /// The toolbar's item array (R46).
  public var toolbarItems = false
  /// The toolbar's appearance, its own or the defaults' (R48–R55).
  public var toolbarAppearance = false
  /// Every tint of the toolbar: the bar's and its items' (R56).
  public var toolbarTints = false
  /// `setBarHidden` of the navigation bar (R57).
  public var navigationBarHidden = false
  /// `setBarHidden` of the toolbar (R57).
  public var toolbarHidden = false
  /// Bar button items whose properties changed: every place each is shown follows (R39–R45).
  public var barButtonItems: [String] = []

  /// Nothing changed.
  public init() {}

  /// Every part: what a layout resolved from nothing known of the change needs.
  public static let everything: LayoutChange = {
    var change = LayoutChange()
    change.navigationBarContent = true
    change.navigationBarAppearance = true
    change.navigationBarTints = true
    change.toolbarItems = true
    change.toolbarAppearance = true
    change.toolbarTints = true
    change.navigationBarHidden = true
    change.toolbarHidden = true
    return change
  }()

  /// What `ops`, applied in order, may have changed; `state` is the state
  /// after them, which says which navigation items are the top and back ones
  /// when no op changed the stack (when one did, the bar is resolved again).
  public init(ops: [Op], in state: SceneState) {
    for op in ops { add(op, in: state) }
  }

  /// Adds what `op` may have changed; `state` as for `init(ops:in:)`.
  public mutating func add(_ op: Op, in state: SceneState) {
    let items = state.navigationBar.items
    let top = items.last?.id
    let back = items.count >= 2 ? items[items.count - 2].id : nil
    switch op {
    case .push, .pop, .popTo, .setStack:
      navigationBarContent = true
    case .updateNavigationItem(let id, let fields, _):
      for field in fields {
        switch field {
        case .title:
          if id == top { centre = true } else if id == back { backButton = true }
        case .titleView: if id == top { centre = true }
        case .prompt: if id == top { prompt = true }
        case .backBarButtonItem: if id == back { backButton = true }
        case .hidesBackButton, .leftItemsSupplementBackButton: if id == top { navigationBarContent = true }
        }
      }
    case .setBarButtonItems(let id, _, _, _), .setBarButtonItem(let id, _, _, _),
      .insertBarButtonItem(let id, _, _, _), .removeBarButtonItem(let id, _, _), .moveBarButtonItem(let id, _, _, _):
      if id == top { navigationBarContent = true }
    case .defineBarButtonItem:
      // A new item is referenced nowhere yet (R4): no layout shows it.
      break
    case .updateBarButtonItem(let id, _):
      if !barButtonItems.contains(id) { barButtonItems.append(id) }
    case .deleteBarButtonItem:
      // Every reference goes too (R4), from any side array, back item or the toolbar;
      // rare enough that both bars are resolved again rather than tracked.
      navigationBarContent = true
      toolbarItems = true
    case .setToolbarItems, .insertToolbarItem, .removeToolbarItem, .moveToolbarItem:
      toolbarItems = true
    case .setBarHidden(.navigationBar, _, _):
      navigationBarHidden = true
    case .setBarHidden(.toolbar, _, _):
      toolbarHidden = true
    case .updateAppearance(let target, let fields):
      let tint = fields.contains { if case .tintColor = $0 { true } else { false } }
      switch target {
      case .navigationBar, .defaultNavigationBar:
        navigationBarAppearance = true
        if tint { navigationBarTints = true }
      case .toolbar, .defaultToolbar:
        toolbarAppearance = true
        if tint { toolbarTints = true }
      }
    case .setSceneTint:
      navigationBarAppearance = true
      toolbarAppearance = true
      navigationBarTints = true
      toolbarTints = true
    case .setDefaultItemTint:
      navigationBarTints = true
      toolbarTints = true
    }
  }

  /// Everything either change names: the change of two runs of ops in turn.
  public mutating func formUnion(_ other: LayoutChange) {
    navigationBarContent = navigationBarContent || other.navigationBarContent
    centre = centre || other.centre
    prompt = prompt || other.prompt
    backButton = backButton || other.backButton
    navigationBarAppearance = navigationBarAppearance || other.navigationBarAppearance
    navigationBarTints = navigationBarTints || other.navigationBarTints
    toolbarItems = toolbarItems || other.toolbarItems
    toolbarAppearance = toolbarAppearance || other.toolbarAppearance
    toolbarTints = toolbarTints || other.toolbarTints
    navigationBarHidden = navigationBarHidden || other.navigationBarHidden
    toolbarHidden = toolbarHidden || other.toolbarHidden
    for id in other.barButtonItems where !barButtonItems.contains(id) { barButtonItems.append(id) }
  }
}
