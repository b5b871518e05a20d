/// A bar button item as a front end draws it in one place (SEMANTICS R62 `Item`).
///
/// The same bar button item may appear in both bars with different tints
/// (R56), so a `LayoutItem` belongs to the place it is shown in.
public struct LayoutItem: Sendable, Hashable, Identifiable {
  /// How the item is drawn (R42).
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case system, custom, title, image, customView, flexibleSpace, fixedSpace

    /// Spaces take room but are never drawn or activated, and take no gap (R34).
    public var isSpace: Bool { self == .flexibleSpace || self == .fixedSpace }

    /// R42, first rule that applies.
    public init(of item: BarButtonItem) {
      if item.customView != nil {
        self = .customView
      } else if let systemItem = item.systemItem {
        switch systemItem {
        case .flexibleSpace: self = .flexibleSpace
        case .fixedSpace: self = .fixedSpace
        default: self = .system
        }
      } else if item.image != nil {
        self = .image
      } else if item.title != nil {
        self = .title
      } else {
        self = .custom
      }
    }
  }

  /// The bar button item's id: the identity patches diff by (R65).
  public var id: String
  /// How to draw it (R42); spaces are laid out but never drawn.
  public var kind: Kind
  /// The item's own title, verbatim (an image item's title is its accessibility label).
  public var title: String?
  /// A template image, drawn in `tint` (R45).
  public var image: ImageRef?
  /// The system item whose image or title the front end supplies (R40).
  public var systemItem: SystemItem?
  /// Passed through for the front end; it does not change the width (R32).
  public var style: ItemStyle
  /// Drawn by the front end at `customView.width` (R32 rule 2).
  public var customView: CustomView?
  /// A disabled item is drawn dimmed and cannot be activated (R58).
  public var enabled: Bool
  /// Resolved for the bar the item is shown in (R56).
  public var tint: Color
  /// Where it is drawn, when resolved with a width and shown (not for overflow).
  public var extent: Extent?

  /// A layout item from its parts.
  public init(
    id: String, kind: Kind, title: String?, image: ImageRef?, systemItem: SystemItem?, style: ItemStyle,
    customView: CustomView?, enabled: Bool, tint: Color, extent: Extent? = nil
  ) {
    self.id = id
    self.kind = kind
    self.title = title
    self.image = image
    self.systemItem = systemItem
    self.style = style
    self.customView = customView
    self.enabled = enabled
    self.tint = tint
    self.extent = extent
  }

  /// The item as drawn from a bar button item, with the tint of its bar and no geometry yet.
  public init(_ item: BarButtonItem, tint: Color) {
    self.init(
      id: item.id, kind: Kind(of: item), title: item.title, image: item.image, systemItem: item.systemItem,
      style: item.style, customView: item.customView, enabled: item.enabled, tint: tint)
  }
}

/// A navigation bar item that did not fit, and the side it would have been on (R37).
public struct OverflowedItem: Sendable, Hashable, Identifiable {
  /// The item, without geometry.
  public var item: LayoutItem
  /// The side of the navigation bar it belongs to.
  public var side: BarSide

  /// The overflowed `item` of `side`; its geometry is dropped.
  public init(_ item: LayoutItem, side: BarSide) {
    var item = item
    item.extent = nil
    self.item = item
    self.side = side
  }

  /// The item's id: identity for patches.
  public var id: String { item.id }
}

/// Where something is drawn along a bar: its left edge `x` and its `width`, in points.
public struct Extent: Sendable, Hashable {
  /// The left edge, from the bar's left edge.
  public var x: Double
  /// May be 0 (a squeezed title, an empty flexible space).
  public var width: Double

  /// The extent `[x, x + width]`.
  public init(x: Double, width: Double) {
    self.x = x
    self.width = width
  }

  /// The right edge.
  public var end: Double { x + width }
}
