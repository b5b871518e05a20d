/// What the resolver needs to know of the screen (SEMANTICS R7): the bars'
/// width, the height class and where each bar sits.
///
/// Resolving with `metrics: nil` means "no width": no geometry fields and no
/// overflow (R38), with the defaults below for the rest. `compact` and the
/// positions only pick background images (R50, R51).
public struct LayoutMetrics: Sendable, Hashable {
  /// The width `W` of both bars, in points (R7: finite, 0…10000).
  public var width: Double
  /// Picks the `compact` / `compactPrompt` bar metrics (R50).
  public var compact: Bool
  /// `top` or `topAttached` (R7); picks the navigation bar's background image.
  public var navigationBarPosition: BarPosition
  /// `bottom` or `top` (R7); picks the toolbar's background image.
  public var toolbarPosition: BarPosition

  /// Metrics for bars `width` points wide, with the R7 defaults for the rest.
  public init(width: Double) {
    self.init(width: width, compact: false)
  }

  /// Metrics with every R7 field given.
  public init(
    width: Double, compact: Bool, navigationBarPosition: BarPosition = .top, toolbarPosition: BarPosition = .bottom
  ) {
    self.width = width
    self.compact = compact
    self.navigationBarPosition = navigationBarPosition
    self.toolbarPosition = toolbarPosition
  }
}
