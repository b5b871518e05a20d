/// One change to a scene. A mutation is a batch of ops applied atomically.
///
/// Ops name every item by id, never by index, so their intent survives
/// concurrent edits (SEMANTICS "Mutations", CONFLICTS.md).
public enum Op: Sendable, Hashable {
  /// Push a new navigation item on top of the stack.
  case push(NavigationItem, animated: Bool)
  /// Pop the top item; with `expectTop`, only if that item is the top (else `Conflict`).
  case pop(expectTop: String?, animated: Bool)
  /// Pop every item above the one named.
  case popTo(String, animated: Bool)
  /// Replace the whole stack (empty clears it).
  case setStack([NavigationItem], animated: Bool)
  /// Change fields of a navigation item on the stack.
  case updateNavigationItem(String, [NavigationItemField], animated: Bool)
  /// Replace the whole left or right array of a navigation item.
  case setBarButtonItems(navigationItem: String, side: BarSide, items: [String], animated: Bool)
  /// `leftBarButtonItem`/`rightBarButtonItem`: replace the first element, nil removes it,
  /// an item already in the array moves to the front.
  case setBarButtonItem(navigationItem: String, side: BarSide, item: String?, animated: Bool)
  /// Insert an item into a side array before `before` (at the end when nil).
  case insertBarButtonItem(navigationItem: String, side: BarSide, item: String, before: String?)
  case removeBarButtonItem(navigationItem: String, side: BarSide, item: String)
  /// Move an item within a side array to just before `before` (to the end when nil).
  case moveBarButtonItem(navigationItem: String, side: BarSide, item: String, before: String?)
  /// Create a bar button item in the scene.
  case defineBarButtonItem(BarButtonItem)
  /// Change properties of a bar button item; every place it is shown follows.
  case updateBarButtonItem(String, [BarButtonItemField])
  /// Delete a bar button item and every reference to it.
  case deleteBarButtonItem(String)
  case setToolbarItems([String], animated: Bool)
  case insertToolbarItem(String, before: String?)
  case removeToolbarItem(String)
  case moveToolbarItem(String, before: String?)
  case setBarHidden(Bar, hidden: Bool, animated: Bool)
  /// Change a bar's appearance, or the appearance defaults.
  case updateAppearance(AppearanceTarget, [AppearanceField])
  /// The scene (window) tint.
  case setSceneTint(Color?)
  /// The bar button item appearance default tint.
  case setDefaultItemTint(Color?)
}

/// The two bars.
public enum Bar: String, Sendable, Hashable, CaseIterable {
  case navigationBar, toolbar
}

/// Whose appearance an `updateAppearance` changes.
public enum AppearanceTarget: String, Sendable, Hashable, CaseIterable {
  case navigationBar, toolbar, defaultNavigationBar, defaultToolbar
}

/// One writable field of a navigation item (nil clears).
public enum NavigationItemField: Sendable, Hashable {
  case title(String?)
  case prompt(String?)
  case titleView(CustomView?)
  case backBarButtonItem(String?)
  case hidesBackButton(Bool)
  case leftItemsSupplementBackButton(Bool)

  /// The field's name in the document.
  public var name: String {
    switch self {
    case .title: "title"
    case .prompt: "prompt"
    case .titleView: "titleView"
    case .backBarButtonItem: "backBarButtonItem"
    case .hidesBackButton: "hidesBackButton"
    case .leftItemsSupplementBackButton: "leftItemsSupplementBackButton"
    }
  }
}

/// One writable property of a bar button item (nil clears).
public enum BarButtonItemField: Sendable, Hashable {
  case systemItem(SystemItem?)
  case style(ItemStyle)
  case title(String?)
  case image(ImageRef?)
  case width(Double?)
  case possibleTitles([String])
  case customView(CustomView?)
  case enabled(Bool)
  case tag(Int)
  case tintColor(Color?)
  case action(String?)

  /// The property's name in the document and in conflict keys.
  public var name: String {
    switch self {
    case .systemItem: "systemItem"
    case .style: "style"
    case .title: "title"
    case .image: "image"
    case .width: "width"
    case .possibleTitles: "possibleTitles"
    case .customView: "customView"
    case .enabled: "enabled"
    case .tag: "tag"
    case .tintColor: "tintColor"
    case .action: "action"
    }
  }
}

/// One writable field of a bar appearance (nil clears, so the value inherits again).
public enum AppearanceField: Sendable, Hashable {
  case barStyle(BarStyle?)
  case tintColor(Color?)
  case barTintColor(Color?)
  case translucent(Bool?)
  case backgroundImage(ImageRef?, position: BarPosition, metrics: BarMetrics)
  case shadowImage(ImageRef?)
  case titleTextAttributes(TitleTextAttributes?)

  /// The field's name; background images are named per (position, metrics).
  public var name: String {
    switch self {
    case .barStyle: "barStyle"
    case .tintColor: "tintColor"
    case .barTintColor: "barTintColor"
    case .translucent: "translucent"
    case .backgroundImage(_, let position, let metrics): "backgroundImage/\(position.rawValue)/\(metrics.rawValue)"
    case .shadowImage: "shadowImage"
    case .titleTextAttributes: "titleTextAttributes"
    }
  }
}
