/// The navigation bar: a stack of navigation items, root first.
public struct NavigationBarState: Sendable, Hashable {
  /// The stack, bottom (root) first.
  public var items: [NavigationItem]
  /// Whether the bar is hidden (R57).
  public var hidden: Bool
  /// The bar's own appearance.
  public var appearance: BarAppearance

  /// A navigation bar; visible and empty by default.
  public init(items: [NavigationItem] = [], hidden: Bool = false, appearance: BarAppearance = BarAppearance()) {
    self.items = items
    self.hidden = hidden
    self.appearance = appearance
  }

  /// The last item of the stack.
  public var topItem: NavigationItem? { items.last }
  /// The item just below the top.
  public var backItem: NavigationItem? { items.count >= 2 ? items[items.count - 2] : nil }
}

/// The toolbar: bar button item ids, left to right.
public struct ToolbarState: Sendable, Hashable {
  /// Bar button item ids, left to right.
  public var items: [String]
  /// Whether the toolbar is hidden (R57).
  public var hidden: Bool
  /// The toolbar's own appearance.
  public var appearance: BarAppearance

  /// A toolbar; visible and empty by default.
  public init(items: [String] = [], hidden: Bool = false, appearance: BarAppearance = BarAppearance()) {
    self.items = items
    self.hidden = hidden
    self.appearance = appearance
  }
}

/// Everything navd knows of one scene: the authoritative state every mutation changes.
public struct SceneState: Sendable, Hashable {
  /// The navigation stack and its bar.
  public var navigationBar: NavigationBarState
  /// The toolbar.
  public var toolbar: ToolbarState
  /// Every bar button item of the scene, in the order they were defined.
  public var barButtonItems: BarButtonItemRegistry
  /// The scene's (window's) tint, inherited by bars that set none.
  public var tintColor: Color?
  /// The scene's appearance proxy values (R48, R56).
  public var appearanceDefaults: AppearanceDefaults

  /// A scene; every part defaults to the empty state (R2).
  public init(
    navigationBar: NavigationBarState = NavigationBarState(), toolbar: ToolbarState = ToolbarState(),
    barButtonItems: BarButtonItemRegistry = BarButtonItemRegistry(), tintColor: Color? = nil,
    appearanceDefaults: AppearanceDefaults = AppearanceDefaults()
  ) {
    self.navigationBar = navigationBar
    self.toolbar = toolbar
    self.barButtonItems = barButtonItems
    self.tintColor = tintColor
    self.appearanceDefaults = appearanceDefaults
  }

  /// A new scene: empty stack, empty toolbar, no items.
  public static let empty = SceneState()
}
