/// The navigation bar: a stack of navigation items, root first.
public struct NavigationBarState: Sendable, Hashable {
  public var items: [NavigationItem]
  public var hidden: Bool
  public var appearance: BarAppearance

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
  public var items: [String]
  public var hidden: Bool
  public var appearance: BarAppearance

  public init(items: [String] = [], hidden: Bool = false, appearance: BarAppearance = BarAppearance()) {
    self.items = items
    self.hidden = hidden
    self.appearance = appearance
  }
}

/// Everything navd knows of one scene: the authoritative state every mutation changes.
public struct SceneState: Sendable, Hashable {
  public var navigationBar: NavigationBarState
  public var toolbar: ToolbarState
  /// Every bar button item of the scene, in the order they were defined.
  public var barButtonItems: BarButtonItemRegistry
  /// The scene's (window's) tint, inherited by bars that set none.
  public var tintColor: Color?
  public var appearanceDefaults: AppearanceDefaults

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
