/// What a front end draws for one scene: the resolved navigation bar and
/// toolbar (SEMANTICS R62), made by `LayoutResolver.resolve(_:metrics:)`.
///
/// A pure value: equal states and metrics give equal layouts, and `json` is the
/// document subscribers patch. Geometry (`extent`, `truncated`) is set exactly
/// when the layout was resolved with a width (R38).
public struct Layout: Sendable, Hashable {
  /// The navigation bar: back button, left items, centre, right items.
  public var navigationBar: NavigationBarLayout
  /// The toolbar: items left to right.
  public var toolbar: ToolbarLayout

  /// A layout of the two bars.
  public init(navigationBar: NavigationBarLayout, toolbar: ToolbarLayout) {
    self.navigationBar = navigationBar
    self.toolbar = toolbar
  }

  /// Whether a front end may activate the bar button item `itemId` (R58).
  ///
  /// True when the item is shown in `navigationBar.left`, `navigationBar.right`
  /// or `toolbar.items` of a bar that is not hidden, is not a space, and is
  /// enabled. Overflowed items and the back button (R60: a pop, not an item)
  /// are never activatable through this.
  public func isActivatable(_ itemId: String) -> Bool {
    var shown: [LayoutItem] = []
    if !navigationBar.hidden { shown += navigationBar.left + navigationBar.right }
    if !toolbar.hidden { shown += toolbar.items }
    return shown.contains { $0.id == itemId && !$0.kind.isSpace && $0.enabled }
  }
}

/// The resolved navigation bar (R19–R37).
public struct NavigationBarLayout: Sendable, Hashable {
  /// A hidden bar is still fully resolved (R57); only activation changes.
  public var hidden: Bool
  /// The top navigation item's id; nil with an empty stack.
  public var topItem: String?
  /// The top item's prompt when set and non-empty (R22).
  public var prompt: String?
  /// The back button, when shown (R23–R25). Never overflowed.
  public var backButton: BackButtonLayout?
  /// Shown left items, left to right (R26).
  public var left: [LayoutItem]
  /// The title or title view; nil with an empty stack (R19).
  public var centre: CentreLayout?
  /// Shown right items in on-screen order, left to right: the reverse of the
  /// array order (R28).
  public var right: [LayoutItem]
  /// Items that did not fit: left ones in array order, then right ones (R37).
  public var overflow: [OverflowedItem]
  /// The bar's resolved appearance (R48–R56).
  public var appearance: ResolvedAppearance

  /// A navigation bar layout from its parts.
  public init(
    hidden: Bool, topItem: String?, prompt: String?, backButton: BackButtonLayout?, left: [LayoutItem],
    centre: CentreLayout?, right: [LayoutItem], overflow: [OverflowedItem], appearance: ResolvedAppearance
  ) {
    self.hidden = hidden
    self.topItem = topItem
    self.prompt = prompt
    self.backButton = backButton
    self.left = left
    self.centre = centre
    self.right = right
    self.overflow = overflow
    self.appearance = appearance
  }
}

/// The resolved toolbar (R46, R47).
public struct ToolbarLayout: Sendable, Hashable {
  /// A hidden toolbar is still fully resolved (R57).
  public var hidden: Bool
  /// Shown items left to right, spaces included (with a width, flexible
  /// spaces carry their share of the free width).
  public var items: [LayoutItem]
  /// Overflowed non-space items in array order; overflowed spaces are dropped (R47).
  public var overflow: [LayoutItem]
  /// The bar's resolved appearance (R48–R56); `titleTextAttributes` is always nil.
  public var appearance: ResolvedAppearance

  /// A toolbar layout from its parts.
  public init(hidden: Bool, items: [LayoutItem], overflow: [LayoutItem], appearance: ResolvedAppearance) {
    self.hidden = hidden
    self.items = items
    self.overflow = overflow
    self.appearance = appearance
  }
}

/// The back button as drawn (R24, R25). Its content comes from the back item.
public struct BackButtonLayout: Sendable, Hashable {
  /// The back item's id: the navigation item a pop returns to.
  public var sourceItem: String
  /// The back item's `backBarButtonItem` id, when it has one (even when that
  /// item contributed no title or image, R24 case 2).
  public var item: String?
  /// `B.title`, or the back item's title, or "Back" (R24).
  public var title: String?
  /// `B.image` when `B` has a title or an image (R24 case 1).
  public var image: ImageRef?
  /// `B.enabled`, or true without `B` (R25).
  public var enabled: Bool
  /// Resolved with `B` as the item (R56).
  public var tint: Color
  /// Where it is drawn, when resolved with a width.
  public var extent: Extent?

  /// A back button from its parts.
  public init(
    sourceItem: String, item: String?, title: String?, image: ImageRef?, enabled: Bool, tint: Color,
    extent: Extent? = nil
  ) {
    self.sourceItem = sourceItem
    self.item = item
    self.title = title
    self.image = image
    self.enabled = enabled
    self.tint = tint
    self.extent = extent
  }
}

/// The centre of the navigation bar: the top item's title or title view (R19–R21, R36).
public struct CentreLayout: Sendable, Hashable {
  /// Which of the two the centre shows.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case title, titleView
  }

  /// `titleView` when the top item has one and no left items (R19, R20), else `title`.
  public var kind: Kind
  /// The top item's title verbatim; also carried in a title-view centre, for accessibility (R21).
  public var title: String?
  /// Set exactly when `kind` is `titleView`.
  public var titleView: CustomView?
  /// Where the title is drawn, when resolved with a width (R36).
  public var extent: Extent?
  /// Whether the title was elided (or the title view shrunk) to fit; nil without a width.
  public var truncated: Bool?

  /// A centre from its parts.
  public init(kind: Kind, title: String?, titleView: CustomView?, extent: Extent? = nil, truncated: Bool? = nil) {
    self.kind = kind
    self.title = title
    self.titleView = titleView
    self.extent = extent
    self.truncated = truncated
  }
}
