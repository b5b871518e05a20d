/// What the resolver needs to know of the screen (SEMANTICS R7): the bars'
/// width, the height class and where each bar sits.
///
/// Without a width (nil, or `metrics: nil`) the layout has no geometry fields
/// and no overflow (R38). `compact` and the positions only pick background
/// images (R50, R51), with or without a width.
public struct LayoutMetrics: Sendable, Hashable, CustomStringConvertible {
  /// The width `W` of both bars, in points (R7: finite, 0…10000); nil for no geometry.
  public var width: Double?
  /// Picks the `compact` / `compactPrompt` bar metrics (R50).
  public var compact: Bool
  /// `top` or `topAttached` (R7); picks the navigation bar's background image.
  public var navigationBarPosition: BarPosition
  /// `bottom` or `top` (R7); picks the toolbar's background image.
  public var toolbarPosition: BarPosition

  /// Metrics for bars `width` points wide (nil: no geometry), with the R7 defaults for the rest.
  public init(width: Double?) {
    self.init(width: width, compact: false)
  }

  /// Metrics with every R7 field given.
  public init(
    width: Double?, compact: Bool, navigationBarPosition: BarPosition = .top, toolbarPosition: BarPosition = .bottom
  ) {
    self.width = width
    self.compact = compact
    self.navigationBarPosition = navigationBarPosition
    self.toolbarPosition = toolbarPosition
  }

  /// The R7 defaults and no width: what `metrics: nil` means.
  public static let defaults = LayoutMetrics(width: nil)

  /// `@375`, `compact`, `nav=topAttached`, `toolbar=top`, joined with commas; empty for the defaults.
  public var description: String {
    var parts: [String] = []
    if let width { parts.append("@\(width)") }
    if compact { parts.append("compact") }
    if navigationBarPosition != .top { parts.append("nav=\(navigationBarPosition.rawValue)") }
    if toolbarPosition != .bottom { parts.append("toolbar=\(toolbarPosition.rawValue)") }
    return parts.joined(separator: ",")
  }
}
