/// One move of a `LayoutDocument` to a new state (`LayoutDocument.step(to:change:shared:)`):
/// the document has moved, its patch is written only when asked for (`patch(from:to:)`), and
/// `sharing` says which other widths' moves have the same patch, so that widths of one
/// placement write one patch and encode it once (`SubscriptionGroup.advance`).
public struct LayoutStep: Sendable {
  /// What decides a shareable step's patch beside the two states: the parts of the
  /// navigation bar set in place and where each edited item is placed, in each bar.
  ///
  /// A step is shareable when no width-dependent value can have changed: the
  /// geometry of each bar it edits stood, and neither an appearance (which reads the
  /// metrics, R50) nor a bar's arrays changed. Its patch then holds only content,
  /// which reads the state and not the metrics (the hidden flag, the centre's kind,
  /// title and title view, the back button's content, the edited items' content),
  /// at the paths of the items' placements. So two widths' steps from documents of
  /// one state to one state with equal `Sharing` have equal patches (held to the
  /// reference by `LayoutDocumentTests`).
  public struct Sharing: Hashable, Sendable {
    /// `LayoutPatch.NavigationBarParts` set in place; `unread` when the bar was not read.
    var parts: UInt8
    /// Each edited navigation bar item's placement, in edit order (`code(of:)`).
    var navigationBar: [Int]
    /// Each edited toolbar item's placement, in edit order; nil when the toolbar is not diffed.
    var toolbar: [Int]?

    static let unread: UInt8 = 0xFF

    /// `placement` as one number: its kind in the low two bits, its position above.
    static func code(of placement: LayoutDocument.Placement) -> Int {
      switch placement {
      case .left(let position): position << 2
      case .right(let position): position << 2 | 1
      case .overflow(let position): position << 2 | 2
      case .dropped: 3
      }
    }
  }

  /// Nil when the patch may hold a width's own values.
  public let sharing: Sharing?
  /// Whether the navigation bar is diffed, and which of its parts.
  private let navigationBar: Bool
  private let parts: LayoutPatch.NavigationBarParts
  private let positions: LayoutPatch.Positions?
  /// Whether the toolbar is diffed.
  private let toolbar: Bool
  private let toolbarPositions: LayoutPatch.Positions?

  /// A step that changed nothing: an empty patch, the same for every width.
  static let nothing = LayoutStep(
    sharing: Sharing(parts: Sharing.unread, navigationBar: [], toolbar: nil), navigationBar: false, parts: [],
    positions: nil, toolbar: false, toolbarPositions: nil)

  init(
    sharing: Sharing?, navigationBar: Bool, parts: LayoutPatch.NavigationBarParts, positions: LayoutPatch.Positions?,
    toolbar: Bool, toolbarPositions: LayoutPatch.Positions?
  ) {
    self.sharing = sharing
    self.navigationBar = navigationBar
    self.parts = parts
    self.positions = positions
    self.toolbar = toolbar
    self.toolbarPositions = toolbarPositions
  }

  /// The patch from `old`, the document's layout before the step, to `new`, its layout
  /// after it. The step keeps no copy of the old layout: its caller has one (the view's
  /// current version), and a copy here would be made and let go at every width.
  public func patch(from old: Layout, to new: Layout) -> [PatchOperation] {
    guard navigationBar || toolbar else { return [] }
    return LayoutPatch.diff(
      navigationBar: navigationBar ? old.navigationBar : nil, new.navigationBar, parts: parts, positions: positions,
      toolbar: toolbar ? old.toolbar : nil, new.toolbar, toolbarPositions: toolbarPositions)
  }
}
