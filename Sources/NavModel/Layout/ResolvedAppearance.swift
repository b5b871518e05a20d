/// A bar's appearance after inheritance and the translucency rules
/// (SEMANTICS R48–R56): everything a front end needs to paint the bar itself.
public struct ResolvedAppearance: Sendable, Hashable {
  /// The effective bar style; `default` when nothing sets one (R49).
  public var barStyle: BarStyle
  /// Always decided: explicit, else from the background image, else true (R52).
  public var translucent: Bool
  /// The colour drawn behind the bar content; nil for a translucent bar with
  /// a background image, where the image alone is drawn (R53).
  public var backgroundColor: Color?
  /// The background image the lookup found (R51), if any.
  public var backgroundImage: ResolvedBackgroundImage?
  /// Only with a background image (R55); nil means the front end's default hairline.
  public var shadowImage: ImageRef?
  /// The bar's resolved tint (R56).
  public var tint: Color
  /// The navigation bar's title attributes; always nil for the toolbar (R48).
  public var titleTextAttributes: TitleTextAttributes?

  /// A resolved appearance from its parts.
  public init(
    barStyle: BarStyle, translucent: Bool, backgroundColor: Color?, backgroundImage: ResolvedBackgroundImage?,
    shadowImage: ImageRef?, tint: Color, titleTextAttributes: TitleTextAttributes?
  ) {
    self.barStyle = barStyle
    self.translucent = translucent
    self.backgroundColor = backgroundColor
    self.backgroundImage = backgroundImage
    self.shadowImage = shadowImage
    self.tint = tint
    self.titleTextAttributes = titleTextAttributes
  }
}

/// The background image a bar draws, with the key of the entry the lookup
/// found (R51) and the opacity it is drawn at (R54).
public struct ResolvedBackgroundImage: Sendable, Hashable {
  /// The image, as set.
  public var image: ImageRef
  /// The position of the entry found, which may be a fallback (`any`).
  public var position: BarPosition
  /// The metrics of the entry found, which may be a fallback (`default`).
  public var metrics: BarMetrics
  /// 0.9 when translucency is forced onto an opaque image, else 1 (R54).
  public var opacity: Double

  /// A resolved background image from its parts.
  public init(image: ImageRef, position: BarPosition, metrics: BarMetrics, opacity: Double) {
    self.image = image
    self.position = position
    self.metrics = metrics
    self.opacity = opacity
  }
}
