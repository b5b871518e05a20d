/// What a screen shows in the navigation bar when it is on top, and how it
/// appears (as the back button) when it is just below the top.
public struct NavigationItem: Sendable, Hashable, Identifiable {
  /// Unique within the stack (R3).
  public var id: String
  /// The centre title (R21); nil for none.
  public var title: String?
  /// One line shown above the bar (R22); nil for none.
  public var prompt: String?
  /// A view shown instead of the title (R19, R20).
  public var titleView: CustomView?
  /// Id of the bar button item used for the back button when this item is the back item.
  public var backBarButtonItem: String?
  /// Hides the back button while this item is on top (R23).
  public var hidesBackButton: Bool
  /// Shows the back button together with left items (R23).
  public var leftItemsSupplementBackButton: Bool
  /// Bar button item ids, left to right on screen.
  public var leftBarButtonItems: [String]
  /// Bar button item ids; the first is the rightmost on screen.
  public var rightBarButtonItems: [String]

  /// An item with UIKit's defaults for everything not given.
  public init(
    id: String, title: String? = nil, prompt: String? = nil, titleView: CustomView? = nil,
    backBarButtonItem: String? = nil, hidesBackButton: Bool = false, leftItemsSupplementBackButton: Bool = false,
    leftBarButtonItems: [String] = [], rightBarButtonItems: [String] = []
  ) {
    self.id = id
    self.title = title
    self.prompt = prompt
    self.titleView = titleView
    self.backBarButtonItem = backBarButtonItem
    self.hidesBackButton = hidesBackButton
    self.leftItemsSupplementBackButton = leftItemsSupplementBackButton
    self.leftBarButtonItems = leftBarButtonItems
    self.rightBarButtonItems = rightBarButtonItems
  }

  /// The array on one side.
  public subscript(side: BarSide) -> [String] {
    get { side == .left ? leftBarButtonItems : rightBarButtonItems }
    set {
      if side == .left { leftBarButtonItems = newValue } else { rightBarButtonItems = newValue }
    }
  }
}

/// The left or right side of the navigation bar.
public enum BarSide: String, Sendable, Hashable, CaseIterable {
  case left, right

  /// The opposite side.
  public var other: BarSide { self == .left ? .right : .left }
}
